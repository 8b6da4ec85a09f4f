import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../../test/fixtures/run-cli.js";
import { openMemlane } from "../../engine/open-memlane.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-sessions-"));
const db = join(dir, "m.db");
after(() => rmSync(dir, { recursive: true, force: true }));

const memlane = (...args: string[]) =>
  runCli(["--db", db, ...args], { env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" } });

describe("memlane sessions", () => {
  it("lists the sessions left open and closes them, an empty one too", async () => {
    // Two sessions abandoned open (one holding a turn, one empty) and one closed.
    const mem = await openMemlane({ store: db, embedder: "hash", strategy: "carecall" });
    const talked = await mem.session({ agent: "ava", partner: "sam", id: "talked", at: "2024-03-01T10:00" });
    await talked.turn("sam", "I started a pottery class on Tuesdays.");
    await mem.session({ agent: "ava", partner: "kim", id: "empty", at: "2024-03-02T10:00" });
    const done = await mem.session({ agent: "ava", partner: "sam", id: "done", at: "2024-03-03T10:00" });
    await done.turn("sam", "I live in Leeds.");
    await (await done.close()).done;
    await mem.close();

    const open = await memlane("--json", "sessions", "--agent", "ava", "--open");
    assert.equal(open.code, 0, open.stderr);
    const listed = JSON.parse(open.stdout) as { sessions: { id: string; status: string }[] };
    assert.deepEqual(listed.sessions.map((s) => s.id).sort(), ["empty", "talked"]);

    const kim = await memlane("sessions", "--agent", "ava", "--partner", "kim");
    assert.match(kim.stdout, /^empty\s+open\b/);
    assert.doesNotMatch(kim.stdout, /talked|done/);

    const closed = await memlane("sessions", "close", "talked", "empty", "--agent", "ava");
    assert.equal(closed.code, 0, closed.stderr);
    assert.match(closed.stdout, /^talked: done\nempty: ended \(no turns\)$/m);

    const none = await memlane("--json", "sessions", "--agent", "ava", "--open");
    assert.deepEqual(JSON.parse(none.stdout), { sessions: [], nextCursor: null });

    // A page at a time, newest first, following the cursor the last page printed.
    const first = await memlane("--json", "sessions", "--agent", "ava", "--limit", "2", "--newest");
    const page1 = JSON.parse(first.stdout) as { sessions: { id: string }[]; nextCursor: string | null };
    assert.deepEqual(
      page1.sessions.map((s) => s.id),
      ["done", "empty"],
    );
    assert.ok(page1.nextCursor);
    const second = await memlane(
      "--json",
      "sessions",
      "--agent",
      "ava",
      "--limit",
      "2",
      "--newest",
      "--cursor",
      page1.nextCursor,
    );
    const page2 = JSON.parse(second.stdout) as { sessions: { id: string }[]; nextCursor: string | null };
    assert.deepEqual(page2, { sessions: page2.sessions, nextCursor: null });
    assert.deepEqual(
      page2.sessions.map((s) => s.id),
      ["talked"],
    );
    const since = await memlane("sessions", "--agent", "ava", "--after", "2024-03-02T00:00");
    assert.doesNotMatch(since.stdout, /talked/);
    assert.match(since.stdout, /empty/);

    const bad = await memlane("sessions", "--agent", "ava", "--status", "gone");
    assert.equal(bad.code, 3, "an unknown status is bad input (INVALID_INPUT)");
    assert.match(bad.stderr, /status/);
    const noAgent = await memlane("sessions", "--open");
    assert.equal(noAgent.code, 3);
    assert.match(noAgent.stderr, /--agent/);
  });
});
