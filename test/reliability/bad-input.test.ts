import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { shown } from "../../src/cli/format.js";
import { ConflictError, InvalidInputError } from "../../src/core/errors.js";
import { parseConversationTime } from "../../src/core/time.js";
import { DEFAULT_MAX_TURN_CHARS, MAX_TURN_CHARS } from "../../src/engine/api.js";
import { partnerLines, testMemlane } from "../fixtures/engine.js";
import { runCli } from "../fixtures/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-bad-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const one = (agent: string, id: string, text: string, at = "2024-03-02T18:00") =>
  partnerLines(agent, "sam", [[id, at, text]]);

describe("reliability: input the engine refuses", () => {
  it("refuses dates that do not exist instead of moving them", () => {
    for (const bad of [
      "2024-02-30",
      "2023-02-29",
      "2024-04-31T10:00",
      "2024-01-01T24:30",
      "13:10 pm on 8 May, 2023",
      "32 Feb",
      "99:99 pm on 8 May, 2023",
      "1:56 pm on 31 April, 2023",
    ])
      assert.throws(() => parseConversationTime(bad), InvalidInputError, bad);
    assert.equal(parseConversationTime("2024-02-29"), "2024-02-29T00:00:00.000Z");
    assert.equal(parseConversationTime("2024-01-01T24:00"), "2024-01-02T00:00:00.000Z", "ISO end of day");
    assert.equal(parseConversationTime("0:05 am on 8 May, 2023"), "2023-05-08T00:05:00.000Z");
  });

  it("refuses a turn past the size limit, in a live session and in a transcript, naming the limit", async () => {
    for (const [limit, config] of [
      [DEFAULT_MAX_TURN_CHARS, {}],
      [2000, { maxTurnChars: 2000 }],
    ] as const) {
      const mem = await testMemlane(config);
      const s = await mem.session({ agent: "ava", partner: "sam" });
      const huge = "word ".repeat(Math.ceil((limit + 1) / 5));
      const names = (e: InvalidInputError) => e.details.limit === limit && e.message.includes(String(limit));
      await assert.rejects(s.turn("sam", huge), names);
      await assert.rejects(mem.ingest(one("ava", "big", huge)), names);
      assert.equal((await s.turns()).length, 0);
      assert.equal((await mem.store.listSessions(mem.scope("ava"))).length, 1, "only the live session");
      await mem.close();
    }
    await assert.rejects(testMemlane({ maxTurnChars: MAX_TURN_CHARS + 1 }), InvalidInputError);
  });

  it("refuses ids with spaces around them, so 'sam ' is never a second 'sam'", async () => {
    const mem = await testMemlane();
    await assert.rejects(mem.ingest({ ...one("ava", "s1", "hello"), agent: "ava " }), InvalidInputError);
    const spaced = one("ava", "s1", "hello");
    spaced.sessions[0]!.partner = "sam ";
    await assert.rejects(mem.ingest(spaced), InvalidInputError);
    await mem.close();
  });

  it("stores nothing of a file of several transcripts when a later one conflicts", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    await mem.ingest(one("bob", "b1", "I moved to Leeds."));
    await assert.rejects(
      mem.ingestAll([one("ava", "a1", "I adopted a beagle."), one("bob", "b1", "Something else entirely.")]),
      ConflictError,
    );
    assert.deepEqual(
      await mem.store.listSessions(mem.scope("ava")),
      [],
      "the first transcript was not stored",
    );
    await mem.close();
  });

  it("refuses a file naming one session twice with different turns, before writing any", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    await assert.rejects(
      mem.ingestAll([one("ava", "a1", "I adopted a beagle."), one("ava", "a1", "I adopted a cat.")]),
      ConflictError,
    );
    assert.deepEqual(await mem.store.listSessions(mem.scope("ava")), []);
    await mem.close();
  });

  it("ingests a session that a file names twice with the same turns once, on every run", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const file = [one("ava", "a1", "I adopted a beagle."), one("ava", "a1", "I adopted a beagle.")];
    for (const run of [1, 2]) {
      await mem.ingestAll(file);
      assert.equal((await mem.sessions("ava")).length, 1, `run ${run}`);
      assert.equal((await mem.turns("ava")).length, 1, `run ${run}`);
    }
    await mem.close();
  });

  it("keeps a tenant view's store inside its tenant", async () => {
    const mem = await testMemlane();
    const acme = mem.tenant("acme");
    await assert.rejects(acme.store.listMemories({ tenant: "globex", agent: "ava" }), InvalidInputError);
    await assert.rejects(acme.store.listAgents("globex"), InvalidInputError);
    assert.deepEqual(await acme.store.listMemories({ tenant: "acme", agent: "ava" }), []);
    await mem.close();
  });

  it("prints stored text without terminal escape sequences", async () => {
    const evil = "hi\u001b]0;owned\u0007\u001b[2J\u009b31m there";
    assert.equal(shown(evil), "hi\\x1b]0;owned\\x07\\x1b[2J\\x9b31m there");
    const path = join(dir, "evil.db");
    const file = join(dir, "evil.json");
    writeFileSync(
      file,
      JSON.stringify(
        one("ava", "e1", `I adopted a beagle called \u001b[31mBiscuit\u001b]0;x\u0007 yesterday.`),
      ),
    );
    const env = { ...process.env, NO_COLOR: "1", MEMLANE_EMBEDDER: "hash" };
    const ingest = await runCli(["ingest", file, "--db", path], { env });
    assert.equal(ingest.code, 0, ingest.stderr);
    const recall = await runCli(
      ["recall", "--db", path, "--agent", "ava", "--about", "sam", "--units", "turns", "beagle"],
      {
        env,
      },
    );
    assert.equal(recall.code, 0, recall.stderr);
    assert.match(recall.stdout, /\\x1b\[31mBiscuit/);
    assert.ok(
      !recall.stdout.includes("\u001b") && !recall.stdout.includes("\u0007"),
      "no raw escape reached the terminal",
    );
  });
});
