import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { demoTranscript, testMemlane } from "../../../test/fixtures/engine.js";
import { notingStrategy } from "../../../test/fixtures/noting-strategy.js";
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Operation } from "../../core/types.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import type { MemlaneConfig } from "../config.js";
import { UNFINISHED } from "./turn-path.js";

/** An engine with the noting strategy on the LLM engine, driven by `model`. */
const llmNoting = (model: ReturnType<typeof scriptedLlm>, config: Partial<MemlaneConfig> = {}) =>
  testMemlane({
    strategies: [notingStrategy()],
    strategy: "noting",
    chat: model,
    cognition: "llm",
    ...config,
  });

describe("engine: the per-turn path", () => {
  it("lands the turn and the strategy's writes in one transaction, embedded and recallable", async () => {
    const mem = await testMemlane({ strategies: [notingStrategy()], strategy: "noting" });
    const ops: Operation[] = [];
    mem.on("operation", (o) => ops.push(o));
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
    const scope = mem.scope("ava");
    const before = await mem.store.changeVersion(scope);
    const turn = await s.turn("sam", "I adopted a beagle called Biscuit.");
    assert.equal(Number(await mem.store.changeVersion(scope)), Number(before) + 1, "one commit");
    const [note] = await mem.memories("ava");
    assert.equal(note?.text, "sam mentioned: I adopted a beagle called Biscuit.");
    assert.deepEqual(note?.sourceTurns, [turn.id]);
    const vectors = await mem.store.getEmbeddings(scope, "memory", [note!.id], mem.embedder.name);
    assert.equal(vectors.size, 1, "the new memory is embedded");
    const turnVectors = await mem.store.getEmbeddings(scope, "turn", [turn.id], mem.embedder.name);
    assert.equal(turnVectors.size, 1, "the turn is embedded");
    const recall = await mem.recall({ agent: "ava", query: "beagle Biscuit", about: "sam" });
    assert.equal(recall.hits[0]?.id, note!.id);
    assert.ok(recall.hits[0]!.explanation.dense! > 0);
    assert.deepEqual(
      ops.map((o) => `${o.type}:${o.status}`),
      ["TURN:done", "NEW:done"],
    );
    await mem.close();
  });

  it("records a failed step as a failed TURN operation, keeps the turn, and retry runs it again", async () => {
    let broken = true;
    const model = scriptedLlm({
      byName: {
        "test.note": () => (broken ? "not json at all" : JSON.stringify({ note: "Sam has a beagle." })),
      },
    });
    const mem = await llmNoting(model, { retries: 1 });
    const failedEvents: Operation[] = [];
    mem.on("operation", (o) => o.status === "failed" && failedEvents.push(o));
    const s = await mem.session({ agent: "ava", partner: "sam" });
    const turn = await s.turn("sam", "I adopted a beagle.");
    assert.equal((await s.turns()).length, 1, "the turn is stored");
    assert.equal((await mem.memories("ava")).length, 0);
    const [failure] = await mem.failures("ava");
    assert.equal(failure?.type, "TURN");
    assert.match(failure!.error!, /SCHEMA_MISMATCH/);
    assert.deepEqual((failure!.outputs as { step: string }).step, "test.note");
    assert.equal((failure!.outputs as { attempts: unknown[] }).attempts.length, 2);
    assert.deepEqual((failure!.inputs as { turn: string }).turn, turn.id);
    assert.equal(failedEvents.length, 1, "the failure was announced");
    broken = false;
    await mem.retry("ava");
    assert.deepEqual(await mem.failures("ava"), []);
    const [note] = await mem.memories("ava");
    assert.equal(note?.text, "Sam has a beagle.");
    assert.equal((await mem.store.getOperation(mem.scope("ava"), failure!.id))?.status, "done");
    await mem.close();
  });

  it("keeps turn order for concurrent callers, in the background too", async () => {
    const seen: number[] = [];
    // Early turns take longest: hooks that ran side by side would finish in reverse.
    const noting = notingStrategy({ seen, delayMs: (i) => 30 - 2 * i });
    const mem = await testMemlane({ strategies: [noting], strategy: "noting" });
    const s = await mem.session({ agent: "ava", partner: "sam", perTurn: "background" });
    const other = await mem.resume("ava", s.id, { perTurn: "background" });
    const said = Array.from({ length: 12 }, (_, i) => `fact number ${i}`);
    const turns = await Promise.all(said.map((text, i) => (i % 2 ? other : s).turn("sam", text)));
    assert.deepEqual(
      turns.map((t) => t.index).sort((a, b) => a - b),
      said.map((_, i) => i),
      "distinct turn indexes",
    );
    await s.settled();
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
      "per-turn work ran in turn order",
    );
    assert.equal(seen.length, 12);
    const stored = await s.turns();
    const memories = await mem.memories("ava");
    assert.equal(memories.length, 12);
    for (const m of memories) {
      const t = stored.find((x) => x.id === m.sourceTurns[0])!;
      assert.equal(m.text, `sam mentioned: ${t.text}`);
    }
    await mem.close();
  });

  it("gives two engines on one file distinct turn indexes (a taken index is retried)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-turn-"));
    const store = join(dir, "m.db");
    const one = await testMemlane({ store, strategy: "accumulate" });
    const two = await testMemlane({ store, strategy: "accumulate" });
    const s = await one.session({ agent: "ava", partner: "sam" });
    const t = await two.resume("ava", s.id);
    const turns = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? t : s).turn("sam", `line ${i}`)),
    );
    assert.deepEqual(
      turns.map((x) => x.index).sort((a, b) => a - b),
      Array.from({ length: 10 }, (_, i) => i),
    );
    assert.equal((await s.turns()).length, 10);
    await s.turn("sam", "with my own id", { id: "mine-1" });
    await assert.rejects(t.turn("sam", "the same id again", { id: "mine-1" }), ConflictError);
    assert.equal((await s.turns()).length, 11);
    await one.close();
    await two.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves a crash during background work visible and retryable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-turn-"));
    const store = join(dir, "m.db");
    const crashed = await testMemlane({
      store,
      strategies: [notingStrategy({ hang: new Promise(() => undefined) })],
      strategy: "noting",
      perTurn: "background",
    });
    const s = await crashed.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "I moved to Bristol.");
    // The first process never finishes its work (it "crashed"); a second one opens the file.
    const mem = await testMemlane({ store, strategies: [notingStrategy()], strategy: "noting" });
    const [pending] = await mem.failures("ava");
    assert.equal(pending?.type, "TURN");
    assert.equal(pending?.error, UNFINISHED);
    await mem.retry("ava");
    assert.deepEqual(await mem.failures("ava"), []);
    assert.equal((await mem.memories("ava"))[0]?.text, "sam mentioned: I moved to Bristol.");
    await mem.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the turn when the hook's writes cannot land, with the failure recorded", async () => {
    const mem = await testMemlane({ strategies: [notingStrategy({ badWrite: true })], strategy: "noting" });
    const s = await mem.session({ agent: "ava", partner: "sam" });
    const turn = await s.turn("sam", "I adopted a beagle.");
    assert.deepEqual(
      (await s.turns()).map((t) => t.id),
      [turn.id],
    );
    assert.equal((await mem.memories("ava")).length, 0, "none of the hook's writes landed");
    const [failure] = await mem.failures("ava");
    assert.equal(failure?.type, "TURN");
    assert.match(failure!.error!, /CONFLICT/);
    await mem.close();
  });

  it("records a background failure with its step, attempts and cost", async () => {
    const model = scriptedLlm({ byName: { "test.note": () => "never json" } });
    const mem = await llmNoting(model, { retries: 1, perTurn: "background" });
    const events: string[] = [];
    mem.on("operation", (o) => events.push(`${o.type}:${o.status}`));
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "I adopted a beagle.");
    await s.settled();
    const [failure] = await mem.failures("ava");
    assert.equal((failure!.outputs as { step: string }).step, "test.note");
    assert.equal((failure!.outputs as { attempts: unknown[] }).attempts.length, 2);
    assert.equal(failure!.usage.calls, 2);
    assert.deepEqual(events, ["TURN:failed"]);
    await mem.close();
  });

  it("runs a failed TURN once even when two retries race", async () => {
    let broken = true;
    const model = scriptedLlm({
      byName: { "test.note": () => (broken ? "nope" : JSON.stringify({ note: "Sam has a beagle." })) },
    });
    const mem = await llmNoting(model, { retries: 0 });
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "I adopted a beagle.");
    broken = false;
    await Promise.all([mem.retry("ava"), mem.retry("ava")]);
    assert.equal((await mem.memories("ava")).length, 1);
    await assert.rejects(mem.retry("ava", ""), InvalidInputError);
    await mem.close();
  });

  it("waits on close for background work, then refuses new calls", async () => {
    const mem = await testMemlane({
      strategies: [notingStrategy({ delayMs: () => 40 })],
      strategy: "noting",
      perTurn: "background",
    });
    const done: string[] = [];
    mem.on("operation", (o) => done.push(`${o.type}:${o.status}`));
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "I moved to Porto.");
    await s.turn("sam", "I started learning Portuguese.");
    await mem.close();
    assert.deepEqual(
      done,
      ["NEW:done", "TURN:done", "NEW:done", "TURN:done"],
      "both turns' work landed first",
    );
    await assert.rejects(mem.session({ agent: "ava", partner: "sam" }), ConflictError);
    await assert.rejects(s.turn("sam", "late"), ConflictError);
  });

  it("lets a reply see background per-turn work, and closes after it", async () => {
    const mem = await testMemlane({
      strategies: [notingStrategy()],
      strategy: "noting",
      perTurn: "background",
    });
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "My sister Lea is visiting from Lyon.");
    const { recall } = await s.reply({ query: "Who is visiting from Lyon?" });
    assert.match(recall.hits[0]?.text ?? "", /Lea is visiting/);
    const { done } = await s.close();
    assert.equal((await done)?.state, "done");
    await mem.close();
  });

  it("ingests a transcript turn by turn for a per-turn strategy, resuming a session cut short", async () => {
    const mem = await testMemlane({ strategies: [notingStrategy()], strategy: "noting" });
    // A run killed during the first session: the session is open with its first turn only.
    const first = demoTranscript.sessions[0]!;
    const live = await mem.session({ agent: "ava", partner: "sam", id: first.id, at: first.at });
    await live.turn(first.turns[0]!.speaker, first.turns[0]!.text);
    const report = await mem.ingest(demoTranscript);
    assert.deepEqual([report.resumed, report.ingested, report.failed], [1, 1, 0]);
    const partnerTurns = demoTranscript.sessions.flatMap((s) => s.turns).filter((t) => t.speaker === "sam");
    const notes = await mem.memories("ava");
    assert.equal(notes.length, partnerTurns.length, "one note per partner turn, none twice");
    const again = await mem.ingest(demoTranscript);
    assert.equal(again.skipped, 2);
    assert.equal((await mem.memories("ava")).length, partnerTurns.length);
    await mem.close();
  });

  it("reports a session whose per-turn work failed during ingest as failed", async () => {
    const model = scriptedLlm({ byName: { "test.note": () => "never json" } });
    const mem = await llmNoting(model, { retries: 0 });
    const report = await mem.ingest(demoTranscript);
    assert.equal(report.failed, 2);
    assert.deepEqual(
      report.failures.map((f) => f.code),
      ["SCHEMA_MISMATCH", "SCHEMA_MISMATCH"],
    );
    await mem.close();
  });
});
