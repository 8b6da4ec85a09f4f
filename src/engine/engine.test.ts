import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { demoTranscript, testMemlane } from "../../test/fixtures/engine.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../core/errors.js";
import type { Operation } from "../core/types.js";
import { ScriptedChatModel } from "../models/test-doubles.js";
import { validateTranscript } from "./ingest/formats/transcript.js";

describe("engine: live sessions", () => {
  it("records turns, consolidates in the background and recalls the memory", async () => {
    const mem = await testMemlane();
    const ops: Operation[] = [];
    mem.on("operation", (o) => ops.push(o));
    const jobs: string[] = [];
    mem.on("job", (j) => jobs.push(j.state));
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2023-05-08T13:56" });
    await s.turn("sam", "I finally adopted the beagle yesterday! His name is Biscuit.");
    await s.turn("ava", "Congratulations!");
    const { job, done } = await s.close();
    assert.equal(job?.state, "queued");
    assert.equal((await done)?.state, "done");
    await mem.idle();
    assert.deepEqual(jobs, ["queued", "running", "done"]);
    const memories = await mem.memories("ava");
    const beagle = memories.find((m) => m.text.includes("beagle"))!;
    assert.ok(beagle, memories.map((m) => m.text).join(" | "));
    assert.equal(beagle.observedAt, "2023-05-08T13:56:00.000Z");
    assert.match(beagle.text, /7 May 2023/);
    assert.deepEqual(ops.map((o) => o.type).slice(0, 2), ["SUMMARIZE", "APPEND"]);
    const recall = await mem.recall({ agent: "ava", query: "what dog does Sam have?", about: "sam" });
    assert.equal(recall.hits[0]!.id, beagle.id);
    assert.ok("dense" in recall.hits[0]!.explanation && "bm25" in recall.hits[0]!.explanation);
    assert.equal((await mem.store.getSession(mem.scope("ava"), s.id))?.status, "consolidated");
    await mem.close();
  });

  it("recalls raw turns when asked for turn units, only of sessions the partner was in", async () => {
    const mem = await testMemlane();
    await mem.ingest(validateTranscript(demoTranscript));
    await mem.ingest(
      validateTranscript({
        agent: "ava",
        sessions: [
          {
            id: "k1",
            at: "2024-03-05T09:00",
            partner: "kim",
            turns: [
              { speaker: "kim", text: "My beagle Pepper chews every shoe in the house." },
              { speaker: "ava", text: "A beagle like Pepper needs long walks." },
            ],
          },
        ],
      }),
    );
    const recall = await mem.recall({
      agent: "ava",
      query: "Biscuit the beagle",
      units: "turns",
      k: 3,
      about: "sam",
    });
    assert.equal(recall.strategy, "turns");
    assert.equal(recall.hits.length, 3);
    assert.ok(recall.hits.every((h) => h.kind === "turn" && h.sourceTurns[0] === h.id));
    assert.match(recall.hits[0]!.text, /Biscuit/);
    // A turns recall for a partner holds the turns of their sessions, the agent's words to them
    // included, and never a turn of a session they were not in.
    const sessionOf = (id: string) => id.slice(0, id.lastIndexOf(":"));
    const forSam = await mem.recall({ agent: "ava", query: "beagle", units: "turns", about: "sam", k: 10 });
    assert.ok(forSam.hits.length > 0);
    assert.ok(
      forSam.hits.every((h) => ["s1", "s2"].includes(sessionOf(h.id))),
      JSON.stringify(forSam.hits),
    );
    const forKim = await mem.recall({ agent: "ava", query: "beagle", units: "turns", about: "kim", k: 10 });
    assert.deepEqual(
      forKim.hits.map((h) => sessionOf(h.id)),
      ["k1", "k1"],
    );
    assert.ok(forKim.hits.some((h) => h.about === "ava"));
    const whole = await mem.recall({ agent: "ava", query: "beagle", units: "turns", scope: "agent", k: 10 });
    const wholeSessions = new Set(whole.hits.map((h) => sessionOf(h.id)));
    assert.ok(wholeSessions.has("s1") && wholeSessions.has("k1"), JSON.stringify([...wholeSessions]));
    await assert.rejects(mem.recall({ agent: "ava", query: "beagle", units: "turns" }), (e: unknown) => {
      assert.ok(e instanceof InvalidInputError);
      assert.equal(e.code, "INVALID_INPUT");
      assert.equal(e.details.field, "about");
      return true;
    });
    await assert.rejects(
      mem.recall({ agent: "ava", query: "beagle", units: "words" as "turns", about: "sam" }),
      InvalidInputError,
    );
    // "Last month" read against a given present: the two turns said in March lead.
    const march = await mem.recall({
      agent: "ava",
      query: "What did Sam say last month?",
      units: "turns",
      about: "sam",
      now: "2024-04-10",
      k: 2,
    });
    assert.ok(
      march.hits.every((h) => h.observedAt.startsWith("2024-03")),
      JSON.stringify(march.hits),
    );
    assert.ok(march.hits.every((h) => h.explanation.time! > 0));
    await assert.rejects(
      mem.recall({ agent: "ava", query: "beagle", units: "turns", about: "sam", now: "someday" }),
      InvalidInputError,
    );
    await mem.close();
  });

  it("answers offline from memory in a later session, and says so when it knows nothing", async () => {
    const mem = await testMemlane();
    await mem.ingest(validateTranscript(demoTranscript));
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-05-01T09:00" });
    await s.turn("sam", "Do you remember where I moved to?");
    const { text, turn } = await s.reply();
    assert.match(text, /Bristol/);
    assert.match(text, /you told me/);
    assert.equal(turn?.speaker, "ava");
    const empty = await testMemlane();
    const t = await empty.session({ agent: "ava", partner: "sam" });
    await t.turn("sam", "What is my favourite colour?");
    assert.match((await t.reply()).text, /don't have anything/);
    await mem.close();
    await empty.close();
  });

  it("rejects bad turns with typed errors and stores nothing for them", async () => {
    const mem = await testMemlane();
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-01-01T10:00" });
    await assert.rejects(s.turn("mallory", "hi"), InvalidInputError);
    await assert.rejects(s.turn("sam", "   "), InvalidInputError);
    await s.turn("sam", "first", { at: "2024-01-01T10:05" });
    await assert.rejects(s.turn("sam", "earlier", { at: "2024-01-01T10:01" }), InvalidInputError);
    assert.equal((await mem.store.listTurns(mem.scope("ava"))).length, 1);
    await assert.rejects(mem.session({ agent: "ava" }), InvalidInputError);
    await assert.rejects(mem.session({ agent: "ava", partner: "ava" }), InvalidInputError);
    await assert.rejects(mem.session({ agent: "", partner: "sam" }), InvalidInputError);
    await assert.rejects(mem.session({ agent: "ava", partner: "sam", at: "whenever" }), InvalidInputError);
    await assert.rejects(mem.session({ agent: "ava", partner: "sam", id: s.id }), ConflictError);
    // A session nobody spoke in ends with nothing to consolidate: no job, and not left open.
    const empty = await mem.session({ agent: "ava", partner: "sam" });
    const ended = await empty.close();
    assert.equal(ended.job, null);
    assert.equal(await ended.done, null);
    assert.equal((await mem.getSession("ava", empty.id))?.status, "consolidated");
    await assert.rejects(empty.close(), ConflictError);
    await s.close();
    await assert.rejects(s.turn("sam", "too late"), ConflictError);
    await assert.rejects(mem.recall({ agent: "ava", query: "  ", about: "sam" }), InvalidInputError);
    assert.deepEqual((await mem.recall({ agent: "nobody", query: "anything", about: "sam" })).hits, []);
    await mem.close();
  });

  it("records a failed consolidation with its inputs, keeps it visible, and retries it", async () => {
    let broken = true;
    const chat = new ScriptedChatModel(() =>
      broken
        ? "I cannot do that"
        : JSON.stringify({ statements: [{ about: "sam", text: "Sam moved to Bristol.", turns: [0] }] }),
    );
    const mem = await testMemlane({ chat, retries: 1 });
    assert.equal(mem.cognition.name, "test:scripted");
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-04-20T10:15" });
    await s.turn("sam", "I moved to Bristol last week.");
    const { done } = await s.close();
    assert.equal((await done)?.state, "failed");
    assert.equal(chat.calls.length, 2);
    const failures = await mem.failures("ava");
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.type, "CONSOLIDATE");
    assert.match(failures[0]!.error!, /SCHEMA_MISMATCH/);
    assert.deepEqual((failures[0]!.inputs as { turns: string[] }).turns, [`${s.id}:1`]);
    assert.equal((failures[0]!.outputs as { attempts: unknown[] }).attempts.length, 2);
    assert.equal(failures[0]!.usage.calls, 2);
    assert.equal((await mem.memories("ava")).length, 0);
    assert.equal((await mem.store.getSession(mem.scope("ava"), s.id))?.status, "failed");
    broken = false;
    const { jobs } = await mem.retry("ava");
    assert.deepEqual(
      jobs.map((j) => j.state),
      ["done"],
    );
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.text),
      ["Sam moved to Bristol."],
    );
    assert.equal((await mem.failures("ava")).length, 0);
    const summarize = (await mem.store.listOperations(mem.scope("ava"))).find(
      (o) => o.type === "SUMMARIZE" && o.status === "done",
    )!;
    assert.equal(summarize.model, "test:scripted");
    assert.equal(summarize.usage.calls, 1);
    assert.ok(summarize.usage.promptTokens > 0);
    await mem.close();
  });

  it("shows history and timeline of a memory, and forgets for real", async () => {
    const mem = await testMemlane();
    await mem.ingest(validateTranscript(demoTranscript));
    const [first] = await mem.memories("ava", { about: "sam" });
    const history = await mem.history("ava", first!.id);
    assert.deepEqual(
      history.operations.map((o) => o.type),
      ["APPEND"],
    );
    assert.deepEqual(
      (await mem.timeline("ava", first!.id)).memories.map((m) => m.id),
      [first!.id],
    );
    await assert.rejects(mem.history("ava", "mem_missing"), NotFoundError);
    await assert.rejects(mem.history("someone-else", first!.id), NotFoundError);
    const report = await mem.forget({ agent: "ava", about: "sam" });
    assert.ok(report.memories >= 2);
    assert.equal(report.turns, 2);
    assert.equal((await mem.memories("ava", { status: "any" })).length, 0);
    const forgetOps = (await mem.store.listOperations(mem.scope("ava"))).filter((o) => o.type === "FORGET");
    assert.equal(forgetOps.length, 1);
    assert.doesNotMatch(JSON.stringify(forgetOps[0]), /Bristol|nurse/);
    await mem.close();
  });

  it("runs the history and none baselines", async () => {
    const history = await testMemlane({ strategy: "history" });
    await history.ingest(validateTranscript(demoTranscript));
    assert.equal((await history.memories("ava")).length, 0);
    const recall = await history.recall({ agent: "ava", query: "anything", about: "sam" });
    assert.equal(recall.hits.length, 4);
    assert.equal(recall.hits[0]!.kind, "turn");
    const none = await testMemlane({ strategy: "none" });
    await none.ingest(validateTranscript(demoTranscript));
    assert.deepEqual((await none.recall({ agent: "ava", query: "Bristol", about: "sam" })).hits, []);
    await assert.rejects(testMemlane({ strategy: "nonsense" }), InvalidInputError);
    await history.close();
    await none.close();
  });
});
