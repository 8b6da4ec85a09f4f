/**
 * The store conformance suite: every MemoryStore must pass it. Call it with a factory that
 * makes a fresh, empty store (and a cleanup).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hearingTest } from "../core/audience.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../core/errors.js";
import type { MemoryFilter } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import {
  axis,
  axisEmbeddings,
  memory,
  operation,
  scopeA,
  scopeB,
  scopeOtherTenant,
  session,
  turn,
} from "./rows.js";
import type { StoreFactory } from "./store-factory.js";
import { runListCases } from "./store-list-cases.js";
import { runProcessCases } from "./store-process-cases.js";

export type { StoreFactory };

async function using(factory: StoreFactory, body: (store: MemoryStore) => Promise<void>): Promise<void> {
  const { store, cleanup } = await factory();
  try {
    await body(store);
  } finally {
    await store.close();
    await cleanup?.();
  }
}

export function runStoreConformance(name: string, factory: StoreFactory): void {
  describe(`MemoryStore conformance: ${name}`, () => {
    it("stores sessions and turns, in conversation order", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, {
          sessions: [session(scopeA, "s2", "2024-04-01T00:00:00.000Z"), session(scopeA, "s1")],
        });
        await store.write(scopeA, {
          turns: [
            turn(scopeA, "s2", 0, "sam", "later"),
            turn(scopeA, "s1", 0, "sam", "hello"),
            turn(scopeA, "s1", 1, "ava", "hi"),
          ],
        });
        assert.deepEqual(
          (await store.listSessions(scopeA)).map((s) => s.id),
          ["s1", "s2"],
        );
        assert.deepEqual(
          (await store.listTurns(scopeA)).map((t) => t.text),
          ["hello", "hi", "later"],
        );
        assert.deepEqual(
          (await store.listTurns(scopeA, { sessionId: "s1", speaker: "ava" })).map((t) => t.text),
          ["hi"],
        );
        assert.equal((await store.listSessions(scopeA, { partner: "sam" })).length, 2);
        assert.equal((await store.listSessions(scopeA, { partner: "nobody" })).length, 0);
      });
    });

    it("keeps every scope apart: other agents and tenants see nothing", async () => {
      await using(factory, async (store) => {
        const m = memory(scopeA, "Sam adopted a beagle.");
        await store.write(scopeA, {
          sessions: [session(scopeA, "s1")],
          memories: [m],
          embeddings: [{ ownerKind: "memory", ownerId: m.id, model: "x", vector: axis(0) }],
        });
        for (const other of [scopeB, scopeOtherTenant]) {
          assert.equal(await store.getMemory(other, m.id), null);
          assert.equal((await store.listMemories(other)).length, 0);
          assert.equal((await store.listSessions(other)).length, 0);
          assert.equal((await store.searchMemories(other, axis(0), "x", 5)).length, 0);
          const report = await store.forget(other, { memoryIds: [m.id] });
          assert.equal(report.memories, 0);
        }
        assert.ok(await store.getMemory(scopeA, m.id));
        assert.deepEqual(await store.listAgents("t1"), ["ava"]);
      });
    });

    it("refuses rows that belong to another scope", async () => {
      await using(factory, async (store) => {
        await assert.rejects(store.write(scopeA, { memories: [memory(scopeB, "x")] }), InvalidInputError);
        assert.equal((await store.listMemories(scopeB)).length, 0);
      });
    });

    it("applies a batch atomically: one bad row and nothing is written", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
        const m = memory(scopeA, "should not survive");
        await assert.rejects(
          store.write(scopeA, { memories: [m], sessions: [session(scopeA, "s1")] }),
          ConflictError,
        );
        assert.equal(await store.getMemory(scopeA, m.id), null);
        const dup = memory(scopeA, "twice");
        await assert.rejects(store.write(scopeA, { memories: [dup, { ...dup }] }), ConflictError);
        assert.equal(await store.getMemory(scopeA, dup.id), null);
      });
    });

    it("supersedes without erasing, linking the new memory to the old", async () => {
      await using(factory, async (store) => {
        const old = memory(scopeA, "Sam lives in Leeds.");
        const fresh = memory(scopeA, "Sam moved to Bristol.", { observedAt: "2024-04-20T10:15:00.000Z" });
        await store.write(scopeA, { memories: [old] });
        await store.write(scopeA, {
          memories: [fresh],
          supersede: [{ oldId: old.id, byId: fresh.id, at: fresh.observedAt, reason: "REPLACE" }],
        });
        const kept = await store.getMemory(scopeA, old.id);
        assert.equal(kept?.status, "superseded");
        assert.equal(kept?.invalidAt, fresh.observedAt);
        assert.equal(kept?.text, "Sam lives in Leeds.");
        assert.deepEqual(
          (await store.listMemories(scopeA)).map((m) => m.id),
          [fresh.id],
        );
        assert.equal((await store.listMemories(scopeA, { status: "any" })).length, 2);
        const edges = await store.listEdges(scopeA, [old.id]);
        assert.equal(edges.length, 1);
        assert.equal(edges[0]!.type, "Supersedes");
        assert.equal(edges[0]!.from, fresh.id);
        assert.equal(edges[0]!.to, old.id);
        // A superseded memory cannot be superseded again, and the failed batch leaves no trace.
        const third = memory(scopeA, "third");
        await assert.rejects(
          store.write(scopeA, {
            memories: [third],
            supersede: [{ oldId: old.id, byId: third.id, at: third.observedAt }],
          }),
          ConflictError,
        );
        assert.equal(await store.getMemory(scopeA, third.id), null);
      });
    });

    it("reinstates a superseded memory while retiring another, refusing anything not superseded", async () => {
      await using(factory, async (store) => {
        const old = memory(scopeA, "Sam lives in Leeds.");
        const fresh = memory(scopeA, "Sam lives in York.", { observedAt: "2024-04-20T10:15:00.000Z" });
        await store.write(scopeA, { memories: [old] });
        await store.write(scopeA, {
          memories: [fresh],
          supersede: [{ oldId: old.id, byId: fresh.id, at: fresh.observedAt, reason: "UPDATE" }],
        });
        await store.write(scopeA, {
          reinstate: [old.id],
          supersede: [{ oldId: fresh.id, byId: null, at: "2024-05-01T00:00:00.000Z", reason: "RESTORE" }],
        });
        const back = await store.getMemory(scopeA, old.id);
        assert.deepEqual([back?.status, back?.invalidAt], ["active", null]);
        const retired = await store.getMemory(scopeA, fresh.id);
        assert.deepEqual([retired?.status, retired?.invalidAt], ["superseded", "2024-05-01T00:00:00.000Z"]);
        assert.equal(
          (await store.listEdges(scopeA, [old.id])).length,
          1,
          "no edge back: the graph stays acyclic",
        );
        // An active memory, another scope's, or an unknown one cannot be reinstated; nothing lands.
        const op = operation(scopeA, { type: "RESTORE", memoryIds: [old.id] });
        for (const [scope, id] of [
          [scopeA, old.id],
          [scopeB, fresh.id],
          [scopeA, "mem_missing"],
        ] as const)
          await assert.rejects(
            store.write(scope, { reinstate: [id], operations: scope === scopeA ? [op] : [] }),
            ConflictError,
          );
        assert.equal(await store.getOperation(scopeA, op.id), null);
        assert.equal((await store.getMemory(scopeA, fresh.id))?.status, "superseded");
      });
    });

    it("adds a fact's new evidence to its memory once, in scope only", async () => {
      await using(factory, async (store) => {
        const kept = memory(scopeA, "Sam works as a pharmacist in Leeds.", { sourceTurns: ["t1"] });
        await store.write(scopeA, { memories: [kept] });
        await store.write(scopeA, { evidence: [{ memoryId: kept.id, turns: ["t1", "t7"] }] });
        await store.write(scopeA, { evidence: [{ memoryId: kept.id, turns: ["t7", "t9"] }] });
        const read = await store.getMemory(scopeA, kept.id);
        assert.deepEqual(read?.sourceTurns, ["t1", "t7", "t9"]);
        assert.equal(read?.text, kept.text);
        // Another scope's memory is not there to add to, and the batch changes nothing.
        const other = memory(scopeB, "other row");
        await assert.rejects(
          store.write(scopeB, { memories: [other], evidence: [{ memoryId: kept.id, turns: ["x"] }] }),
          ConflictError,
        );
        assert.equal(await store.getMemory(scopeB, other.id), null);
        assert.deepEqual((await store.getMemory(scopeA, kept.id))?.sourceTurns, ["t1", "t7", "t9"]);
      });
    });

    it("filters memories by subject, kind, strategy, session and ids", async () => {
      await using(factory, async (store) => {
        const a = memory(scopeA, "about sam", { kind: "fact", sessionId: "s1" });
        const b = memory(scopeA, "about ava", { about: "ava", strategy: "carecall" });
        await store.write(scopeA, { memories: [a, b] });
        assert.deepEqual(
          (await store.listMemories(scopeA, { about: "ava" })).map((m) => m.id),
          [b.id],
        );
        assert.deepEqual(
          (await store.listMemories(scopeA, { kind: "fact" })).map((m) => m.id),
          [a.id],
        );
        assert.deepEqual(
          (await store.listMemories(scopeA, { strategy: "carecall" })).map((m) => m.id),
          [b.id],
        );
        assert.deepEqual(
          (await store.listMemories(scopeA, { sessionId: "s1" })).map((m) => m.id),
          [a.id],
        );
        assert.deepEqual(
          (await store.listMemories(scopeA, { ids: [b.id] })).map((m) => m.id),
          [b.id],
        );
        assert.deepEqual((await store.listMemories(scopeA, { ids: [] })).length, 0);
      });
    });

    it("admits what a hearing may hear, as core/audience.ts says, in lists and vector search", async () => {
      await using(factory, async (store) => {
        const ms = [
          memory(scopeA, "heard by sam", { attributes: { audience: ["sam"] } }),
          memory(scopeA, "heard by sam and kim", { attributes: { audience: ["kim", "sam"] } }),
          memory(scopeA, "sam's secret", { attributes: { audience: ["kim", "sam"], privateTo: ["sam"] } }),
          memory(scopeA, "older, about kim", { about: "kim" }),
          memory(scopeA, "ava to lee", { about: "ava", attributes: { audience: ["lee"] } }),
        ];
        await store.write(scopeA, {
          memories: ms,
          embeddings: axisEmbeddings(ms),
        });
        const heard = async (hearing: MemoryFilter["hearing"]) =>
          (await store.listMemories(scopeA, { hearing })).map((m) => m.text).sort();
        const expected = (hearing: NonNullable<MemoryFilter["hearing"]>) =>
          ms
            .filter(hearingTest(hearing))
            .map((m) => m.text)
            .sort();
        for (const hearing of [
          { scope: "partner" as const, partners: ["kim"] },
          { scope: "partner" as const, partners: ["sam"] },
          { scope: "partner" as const, partners: ["lee", "kim"] },
          { scope: "agent" as const, partners: [] },
          { scope: "agent" as const, partners: ["sam"] },
        ]) {
          assert.deepEqual(await heard(hearing), expected(hearing), JSON.stringify(hearing));
          const found = await store.searchMemories(scopeA, axis(2), "x", 5, { hearing });
          assert.deepEqual(
            found.map((h) => ms.find((m) => m.id === h.id)!.text).sort(),
            expected(hearing),
            `search ${JSON.stringify(hearing)}`,
          );
        }
        assert.deepEqual(await heard({ scope: "partner", partners: ["kim"] }), [
          "heard by sam and kim",
          "older, about kim",
        ]);
      });
    });

    it("searches vectors by cosine within the filter, and stores each vector once", async () => {
      await using(factory, async (store) => {
        const ms = [0, 1, 2].map((i) => memory(scopeA, `m${i}`, { about: i === 2 ? "ava" : "sam" }));
        await store.write(scopeA, {
          memories: ms,
          embeddings: axisEmbeddings(ms),
        });
        const hits = await store.searchMemories(scopeA, axis(1, 8, 0.1), "x", 2);
        assert.equal(hits[0]!.id, ms[1]!.id);
        assert.ok(hits[0]!.score > hits[1]!.score);
        const filtered = await store.searchMemories(scopeA, axis(2), "x", 5, { about: "sam" });
        assert.ok(filtered.every((h) => h.id !== ms[2]!.id));
        assert.equal((await store.searchMemories(scopeA, axis(0), "other-model", 5)).length, 0);
        // The same owner and model again is ignored, not duplicated.
        await store.write(scopeA, {
          embeddings: [{ ownerKind: "memory", ownerId: ms[0]!.id, model: "x", vector: axis(5) }],
        });
        const got = await store.getEmbeddings(scopeA, "memory", [ms[0]!.id], "x");
        assert.equal(got.get(ms[0]!.id)![0], 1);
        assert.equal((await store.stats(scopeA)).embeddings, 3);
      });
    });

    it("records operations and finds them by memory, session and status", async () => {
      await using(factory, async (store) => {
        const m = memory(scopeA, "x");
        await store.write(scopeA, { memories: [m] });
        const op = operation(scopeA, {
          type: "APPEND",
          memoryIds: [m.id],
          sessionId: "s1",
          inputs: { a: 1 },
          usage: { calls: 1, promptTokens: 10, completionTokens: 5, latencyMs: 3 },
        });
        const failed = operation(scopeA, {
          type: "CONSOLIDATE",
          status: "failed",
          error: "bad",
          sessionId: "s2",
        });
        await store.write(scopeA, { operations: [op, failed] });
        const byMemory = await store.listOperations(scopeA, { memoryId: m.id });
        assert.equal(byMemory.length, 1);
        assert.deepEqual(byMemory[0]!.memoryIds, [m.id]);
        assert.deepEqual(byMemory[0]!.inputs, { a: 1 });
        assert.equal(byMemory[0]!.usage.promptTokens, 10);
        assert.deepEqual(
          (await store.listOperations(scopeA, { status: "failed" })).map((o) => o.id),
          [failed.id],
        );
        assert.deepEqual(
          (await store.listOperations(scopeA, { sessionId: "s1" })).map((o) => o.id),
          [op.id],
        );
        assert.equal((await store.getOperation(scopeA, failed.id))?.error, "bad");
        assert.equal(await store.getOperation(scopeB, failed.id), null);
      });
    });

    it("lists the newest operations of a type first, the limit keeping the newest", async () => {
      await using(factory, async (store) => {
        const at = (minute: number) => `2024-03-02T18:${String(minute).padStart(2, "0")}:00.000Z`;
        const ops = Array.from({ length: 6 }, (_, i) =>
          operation(scopeA, { type: i % 2 ? "APPEND" : "CLASSIFY", at: at(i) }),
        );
        await store.write(scopeA, { operations: ops });
        assert.deepEqual(
          (await store.listOperations(scopeA, { type: "APPEND", newest: true, limit: 2 })).map((o) => o.id),
          [ops[5]!.id, ops[3]!.id],
        );
        assert.deepEqual(
          (await store.listOperations(scopeA, { type: "CLASSIFY" })).map((o) => o.id),
          [ops[0]!.id, ops[2]!.id, ops[4]!.id],
        );
        assert.deepEqual(
          (await store.listOperations(scopeA, { limit: 1 })).map((o) => o.id),
          [ops[0]!.id],
          "without `newest`, the log's order (oldest first)",
        );
      });
    });

    it("redacts a forgotten text wherever it was copied, and refuses writes made from forgotten turns", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, { sessions: [session(scopeA, "s1"), session(scopeA, "s2")] });
        await store.write(scopeA, {
          turns: [
            turn(scopeA, "s1", 0, "sam", "I keep a zebracorn called Quillfeather in my garden shed."),
            turn(
              scopeA,
              "s2",
              0,
              "ava",
              "On 2 March you told me: “I keep a zebracorn called Quillfeather in my garden shed.”",
            ),
          ],
          operations: [
            operation(scopeA, {
              type: "SUMMARIZE",
              sessionId: "s2",
              outputs: {
                statements: [{ text: "I keep a zebracorn called Quillfeather in my garden shed." }],
              },
            }),
          ],
        });
        const report = await store.forget(scopeA, { about: "sam" });
        assert.equal(report.redacted, 2);
        const [reply] = await store.listTurns(scopeA, { sessionId: "s2" });
        assert.doesNotMatch(reply!.text, /Quillfeather/);
        assert.equal(reply!.meta.redacted, true);
        const [op] = await store.listOperations(scopeA, { sessionId: "s2" });
        assert.doesNotMatch(JSON.stringify(op!.outputs), /Quillfeather/);
        await assert.rejects(
          store.write(scopeA, {
            requireTurns: ["s1:1"],
            memories: [memory(scopeA, "Sam keeps a zebracorn.")],
          }),
          ConflictError,
        );
        assert.equal((await store.listMemories(scopeA)).length, 0);
      });
    });

    it("forgets a subject for real: memories, turns, vectors, edges and operations", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
        await store.write(scopeA, {
          turns: [turn(scopeA, "s1", 0, "sam", "I adopted a beagle"), turn(scopeA, "s1", 1, "ava", "Lovely")],
        });
        const sam = memory(scopeA, "Sam adopted a beagle.", { sessionId: "s1" });
        const sam2 = memory(scopeA, "Sam named it Biscuit.", { sessionId: "s1" });
        const ava = memory(scopeA, "Ava likes dogs.", { about: "ava" });
        await store.write(scopeA, {
          memories: [sam, sam2, ava],
          edges: [
            {
              id: "e1",
              ...scopeA,
              from: sam.id,
              to: sam2.id,
              type: "SameTopic",
              attributes: {},
              recordedAt: "",
            },
          ],
          embeddings: [
            { ownerKind: "memory", ownerId: sam.id, model: "x", vector: axis(0) },
            { ownerKind: "turn", ownerId: "s1:1", model: "x", vector: axis(1) },
          ],
          operations: [
            operation(scopeA, { type: "APPEND", memoryIds: [sam.id], sessionId: "s1" }),
            operation(scopeA, { type: "APPEND", memoryIds: [ava.id] }),
          ],
        });
        const report = await store.forget(scopeA, { about: "sam" });
        // Ava's "Lovely" answered Sam: a reply to someone goes with their words.
        assert.deepEqual(report, {
          memories: 2,
          edges: 1,
          operations: 1,
          embeddings: 2,
          turns: 2,
          sessions: 0,
          redacted: 0,
        });
        assert.deepEqual(
          (await store.listMemories(scopeA, { status: "any" })).map((m) => m.id),
          [ava.id],
        );
        assert.deepEqual(await store.listTurns(scopeA), []);
        assert.equal((await store.listOperations(scopeA)).length, 1);
        assert.equal((await store.getEmbeddings(scopeA, "turn", ["s1:1"], "x")).size, 0);
      });
    });

    it("forgets a memory with its earlier forms, a person by their id only, and records it in the same transaction", async () => {
      await using(factory, async (store) => {
        const old = memory(scopeA, "Sam has a beagle called Biscuit.", { status: "superseded" });
        const fused = memory(scopeA, "Sam has two dogs, Biscuit and Rover.", {
          attributes: { fusedFrom: { memory: old.id, summary: "Sam adopted Rover in April." } },
        });
        const other = memory(scopeA, "Lea's cat, Ann's favourite, sleeps all day.", { about: "lea" });
        await store.write(scopeA, {
          memories: [old, fused, other],
          edges: [
            {
              id: "f1",
              ...scopeA,
              from: old.id,
              to: fused.id,
              type: "FusedInto",
              attributes: {},
              recordedAt: "",
            },
          ],
          operations: [
            operation(scopeA, {
              type: "SUMMARIZE",
              outputs: { statements: ["Sam adopted Rover in April."] },
            }),
          ],
        });
        // Nobody is called that: not found, whatever text holds the mark.
        for (const nobody of ["-", "'", "_"])
          await assert.rejects(store.forget(scopeA, { about: nobody }), NotFoundError);
        assert.equal(
          (await store.listMemories(scopeA, { status: "any" })).length,
          3,
          "a refused forget erases nothing",
        );
        const report = await store.forget(scopeA, {
          memoryIds: [fused.id],
          record: (counts) => operation(scopeA, { type: "FORGET", outputs: counts }),
        });
        assert.equal(report.memories, 2, "the fused memory and the one fused into it");
        assert.deepEqual(
          (await store.listMemories(scopeA, { status: "any" })).map((m) => m.id),
          [other.id],
        );
        const log = await store.listOperations(scopeA);
        assert.doesNotMatch(JSON.stringify(log), /Rover/, "the statement it was fused from is redacted");
        assert.deepEqual(
          log.filter((o) => o.type === "FORGET").map((o) => o.outputs),
          [report],
        );
      });
    });

    it("forgets a whole session with the memory drawn from it", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, { sessions: [session(scopeA, "s1"), session(scopeA, "s2")] });
        await store.write(scopeA, {
          turns: [turn(scopeA, "s1", 0, "sam", "a"), turn(scopeA, "s2", 0, "sam", "b")],
          memories: [memory(scopeA, "from s1", { sessionId: "s1" })],
        });
        const report = await store.forget(scopeA, { sessionId: "s1" });
        assert.equal(report.sessions, 1);
        assert.equal(report.memories, 1);
        assert.equal(report.turns, 1);
        assert.deepEqual(
          (await store.listSessions(scopeA)).map((s) => s.id),
          ["s2"],
        );
        await assert.rejects(store.forget(scopeA, {}), InvalidInputError);
        await assert.rejects(store.forget(scopeA, { sessionId: "nope" }), NotFoundError);
        // A person is one the scope knows, never a word: "it" names no one, and the refusal
        // lists who is there.
        await assert.rejects(store.forget(scopeA, { about: "it" }), (e: Error) => {
          assert.ok(e instanceof NotFoundError);
          assert.match(e.message, /"it".*"sam"/);
          return true;
        });
      });
    });

    it("updates session and operation status, refusing unknown ids", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
        await store.write(scopeA, { sessionStatus: [{ id: "s1", status: "consolidated" }] });
        assert.equal((await store.getSession(scopeA, "s1"))?.status, "consolidated");
        assert.deepEqual(
          (await store.listSessions(scopeA, { status: "consolidated" })).map((s) => s.id),
          ["s1"],
        );
        await assert.rejects(
          store.write(scopeA, { sessionStatus: [{ id: "nope", status: "failed" }] }),
          ConflictError,
        );
        await assert.rejects(
          store.write(scopeA, { operationStatus: [{ id: "nope", status: "done" }] }),
          ConflictError,
        );
      });
    });

    it("consolidates a session once: of two racing batches one lands, the other is refused whole", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, {
          sessions: [session(scopeA, "s1")],
          turns: [turn(scopeA, "s1", 0, "sam", "I adopted a beagle.")],
        });
        // Two consolidations of one session (two workers, or a job run again after its worker
        // died) each carry their memory and the session's new status; started together, so a
        // store with several connections really has them overlap.
        const consolidation = (text: string) =>
          store.write(scopeA, {
            requireTurns: ["s1:1"],
            memories: [memory(scopeA, text, { sessionId: "s1", sourceTurns: ["s1:1"] })],
            sessionStatus: [{ id: "s1", status: "consolidated" }],
          });
        const results = await Promise.allSettled([
          consolidation("Sam has a beagle."),
          consolidation("Sam owns a beagle."),
        ]);
        assert.equal(
          results.filter((r) => r.status === "fulfilled").length,
          1,
          "exactly one consolidation lands",
        );
        const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        assert.ok(refused.reason instanceof ConflictError);
        assert.equal(refused.reason.details.reason, "already-consolidated");
        assert.equal((await store.listMemories(scopeA, { sessionId: "s1" })).length, 1);
        // Later ones too, and a failure cannot be written over the consolidated session.
        await assert.rejects(
          consolidation("Sam has a dog."),
          (e: ConflictError) => e.details.reason === "already-consolidated",
        );
        await assert.rejects(
          store.write(scopeA, {
            operations: [operation(scopeA, { type: "CONSOLIDATE", status: "failed" })],
            sessionStatus: [{ id: "s1", status: "failed" }],
          }),
          (e: ConflictError) => e.details.reason === "already-consolidated",
        );
        assert.equal((await store.listMemories(scopeA, { status: "any" })).length, 1);
        assert.equal((await store.listOperations(scopeA, { status: "failed" })).length, 0);
        assert.equal((await store.getSession(scopeA, "s1"))?.status, "consolidated");
      });
    });

    it("changes a scope's change version on every commit to it, and only then", async () => {
      await using(factory, async (store) => {
        const v0 = await store.changeVersion(scopeA);
        assert.equal(await store.changeVersion(scopeA), v0);
        const x = memory(scopeA, "x");
        await store.write(scopeA, { memories: [x] });
        const v1 = await store.changeVersion(scopeA);
        assert.notEqual(v1, v0);
        await store.forget(scopeA, { memoryIds: [x.id] });
        assert.notEqual(await store.changeVersion(scopeA), v1);
      });
    });

    it("tells what changed since a version: rows written, superseded, forgotten, edges and vectors", async (t) => {
      await using(factory, async (store) => {
        if (!store.changesSince) return t.skip("this store keeps no change log");
        const v0 = await store.changeVersion(scopeA);
        const t1 = turn(scopeA, "s1", 0, "sam", "I adopted a beagle.");
        const old = memory(scopeA, "Sam has a cat.");
        const vector = Float32Array.from([1, 0, 0]);
        await store.write(scopeA, {
          sessions: [session(scopeA, "s1")],
          turns: [t1],
          memories: [old],
          embeddings: [
            { ownerKind: "memory", ownerId: old.id, model: "m", vector },
            { ownerKind: "turn", ownerId: t1.id, model: "m", vector },
          ],
        });
        await store.write(scopeB, { memories: [memory(scopeB, "elsewhere")] });
        const v1 = await store.changeVersion(scopeA);
        const first = await store.changesSince!(scopeA, v0);
        assert.ok(first, "the log reaches back to the version before the writes");
        assert.equal(first.version, v1);
        assert.deepEqual(first.memories, [old.id], "another scope's write is not in this scope's changes");
        assert.deepEqual(first.turns, [t1.id]);
        assert.deepEqual(first.memoryVectors, [old.id]);
        assert.deepEqual(first.turnVectors, [t1.id]);
        assert.deepEqual(await store.changesSince!(scopeA, v1), {
          ...first,
          memories: [],
          turns: [],
          memoryVectors: [],
          turnVectors: [],
          edges: [],
        });

        const fresh = memory(scopeA, "Sam has a beagle.");
        await store.write(scopeA, {
          memories: [fresh],
          supersede: [{ oldId: old.id, byId: fresh.id, at: fresh.observedAt, reason: "REPLACE" }],
        });
        const second = await store.changesSince!(scopeA, v1);
        assert.deepEqual(
          new Set(second?.memories),
          new Set([old.id, fresh.id]),
          "the superseded memory changed too",
        );
        assert.deepEqual(second?.edges, [{ id: `edge_${fresh.id}_${old.id}`, from: fresh.id, to: old.id }]);
        const v2 = await store.changeVersion(scopeA);
        await store.forget(scopeA, { memoryIds: [fresh.id] });
        const third = await store.changesSince!(scopeA, v2);
        assert.ok(third?.memories.includes(fresh.id), "a forgotten memory is in the changes");
        assert.ok(
          third?.edges.some((e) => e.from === fresh.id),
          "and so are its edges",
        );
        assert.equal(await store.changesSince!(scopeA, "not a version"), null);
        assert.equal(
          await store.changesSince!(scopeA, String(Number(await store.changeVersion(scopeA)) + 5)),
          null,
        );
      });
    });

    it("keeps other scopes' change versions when one scope changes", async () => {
      await using(factory, async (store) => {
        const before = [await store.changeVersion(scopeB), await store.changeVersion(scopeOtherTenant)];
        await store.write(scopeA, { sessions: [session(scopeA, "s1")], memories: [memory(scopeA, "x")] });
        await store.forget(scopeA, { about: "sam" });
        assert.deepEqual(
          [await store.changeVersion(scopeB), await store.changeVersion(scopeOtherTenant)],
          before,
        );
      });
    });

    it("writes several scopes' batches in one transaction, or none of them", async () => {
      await using(factory, async (store) => {
        await store.writeMany([
          { scope: scopeA, batch: { sessions: [session(scopeA, "c1")] } },
          { scope: scopeOtherTenant, batch: { sessions: [session(scopeOtherTenant, "c1")] } },
        ]);
        assert.ok(await store.getSession(scopeA, "c1"));
        assert.ok(await store.getSession(scopeOtherTenant, "c1"));
        await assert.rejects(
          store.writeMany([
            { scope: scopeA, batch: { sessions: [session(scopeA, "c2")] } },
            // A row of another scope inside scopeB's batch: the whole write is refused.
            { scope: scopeB, batch: { sessions: [session(scopeA, "c3")] } },
          ]),
        );
        assert.equal(await store.getSession(scopeA, "c2"), null);
        await assert.rejects(
          store.writeMany([
            { scope: scopeA, batch: { sessions: [session(scopeA, "c4")] } },
            { scope: scopeB, batch: { sessionStatus: [{ id: "missing", status: "closed" }] } },
          ]),
          ConflictError,
        );
        assert.equal(await store.getSession(scopeA, "c4"), null);
      });
    });

    it("updates a session's partners and metadata, in scope only", async () => {
      await using(factory, async (store) => {
        await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
        await store.write(scopeA, {
          sessionUpdates: [
            { id: "s1", partners: ["sam", "lea"], meta: { left: { sam: "2024-03-02T19:00:00.000Z" } } },
          ],
        });
        const s = await store.getSession(scopeA, "s1");
        assert.deepEqual(s?.partners, ["sam", "lea"]);
        assert.deepEqual(s?.meta, { left: { sam: "2024-03-02T19:00:00.000Z" } });
        await assert.rejects(
          store.write(scopeOtherTenant, { sessionUpdates: [{ id: "s1", partners: ["eve"] }] }),
          ConflictError,
        );
        assert.deepEqual((await store.getSession(scopeA, "s1"))?.partners, ["sam", "lea"]);
      });
    });

    it("refuses self-links and edges to missing memories", async () => {
      await using(factory, async (store) => {
        const m = memory(scopeA, "x");
        await store.write(scopeA, { memories: [m] });
        await assert.rejects(
          store.write(scopeA, {
            edges: [
              { id: "e", ...scopeA, from: m.id, to: m.id, type: "Cause", attributes: {}, recordedAt: "" },
            ],
          }),
          InvalidInputError,
        );
        await assert.rejects(
          store.write(scopeA, {
            edges: [
              {
                id: "e",
                ...scopeA,
                from: m.id,
                to: "missing",
                type: "Cause",
                attributes: {},
                recordedAt: "",
              },
            ],
          }),
          ConflictError,
        );
      });
    });

    runListCases(factory);
    runProcessCases(factory);
  });
}
