import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConflictError } from "../../src/core/errors.js";
import { testMemlane } from "../fixtures/engine.js";

const dir = () => mkdtempSync(join(tmpdir(), "memlane-stranded-"));

describe("reliability: every stored turn reaches memory or is shown as waiting", () => {
  it("finishes an open session a killed process left, named or all at once", async () => {
    const d = dir();
    const store = join(d, "m.db");
    const killed = await testMemlane({ store, strategy: "accumulate" });
    for (const id of ["a", "b"]) {
      const s = await killed.session({ agent: "ava", partner: "sam", id, at: "2024-03-02T18:00" });
      await s.turn("sam", `I adopted a beagle called Biscuit ${id}.`);
    }
    // The process dies here: no close. Another one opens the file.
    const mem = await testMemlane({ store, strategy: "accumulate" });
    const waiting = await mem.waiting("ava");
    assert.deepEqual(
      waiting.map((w) => [w.session.id, w.session.status, w.turns]),
      [
        ["a", "open", 1],
        ["b", "open", 1],
      ],
    );
    assert.equal((await mem.inspect("ava")).waiting.length, 2);
    const named = await mem.retry("ava", "a");
    assert.deepEqual(
      named.jobs.map((j) => [j.sessionId, j.state]),
      [["a", "done"]],
    );
    const rest = await mem.retry("ava", undefined, { open: true });
    assert.deepEqual(
      rest.jobs.map((j) => [j.sessionId, j.state]),
      [["b", "done"]],
    );
    assert.deepEqual(await mem.waiting("ava"), []);
    assert.equal((await mem.memories("ava")).length, 2);
    await mem.close();
    rmSync(d, { recursive: true, force: true });
  });

  it("finishes a session a process left closed but unconsolidated", async () => {
    const d = dir();
    const store = join(d, "m.db");
    const first = await testMemlane({ store, strategy: "accumulate" });
    const s = await first.session({ agent: "ava", partner: "sam", id: "c" });
    await s.turn("sam", "I started a new job as a ward manager in Bristol.");
    // Died between marking the session closed and consolidating it.
    await first.store.write(first.scope("ava"), { sessionStatus: [{ id: "c", status: "closed" }] });
    const mem = await testMemlane({ store, strategy: "accumulate" });
    assert.deepEqual(
      (await mem.waiting("ava")).map((w) => w.session.status),
      ["closed"],
    );
    await mem.retry("ava");
    assert.equal((await mem.store.getSession(mem.scope("ava"), "c"))?.status, "consolidated");
    assert.deepEqual(await mem.waiting("ava"), []);
    await mem.close();
    rmSync(d, { recursive: true, force: true });
  });

  it("lets ingest finish a session left open with only its first turns", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const live = await mem.session({ agent: "ava", partner: "sam", id: "s1", at: "2024-03-02T18:00" });
    await live.turn("sam", "I moved to Bristol last week.");
    const report = await mem.ingest({
      agent: "ava",
      sessions: [
        {
          id: "s1",
          at: "2024-03-02T18:00",
          partner: "sam",
          turns: [
            { speaker: "sam", text: "I moved to Bristol last week." },
            { speaker: "sam", text: "I also adopted a beagle called Biscuit." },
          ],
        },
      ],
    });
    assert.equal(report.resumed, 1);
    assert.equal((await mem.store.listTurns(mem.scope("ava"), { sessionId: "s1" })).length, 2);
    assert.equal((await mem.store.getSession(mem.scope("ava"), "s1"))?.status, "consolidated");
    assert.ok((await mem.memories("ava")).some((m) => /beagle/.test(m.text)));
    await mem.close();
  });

  it("refuses turns to a session that is no longer open, from any handle", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const s = await mem.session({ agent: "ava", partner: "sam", id: "s1" });
    const other = await mem.resume("ava", "s1");
    await s.turn("sam", "I moved to Bristol.");
    await (await s.close()).done;
    await assert.rejects(other.turn("sam", "one more thing"), ConflictError);
    await assert.rejects(mem.resume("ava", "s1"), ConflictError);
    assert.equal((await mem.store.listTurns(mem.scope("ava"), { sessionId: "s1" })).length, 1);
    await mem.close();
  });
});
