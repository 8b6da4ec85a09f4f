import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecallHit } from "../core/recall.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { coverDepth, coverFirst, missedTurns } from "./evidence-cover.js";
import { searchWithHistory, withMissedTurns } from "./history-recall.js";
import type { MemorySearch, Retriever } from "./retriever.js";

/** A memory hit made from `turns`, scored `score`. */
function hit(id: string, turns: string[], score: number): RecallHit {
  return {
    kind: "memory",
    id,
    text: id,
    about: "sam",
    score,
    observedAt: "2024-01-01T00:00:00.000Z",
    sessionId: "s1",
    sourceTurns: turns,
    explanation: { score },
  };
}

// Three statements from turn t1 rank above the only one from t2, and one from t3.
const RANKED = [
  hit("a", ["t1"], 9),
  hit("b", ["t1"], 8),
  hit("c", ["t1"], 7),
  hit("d", ["t2"], 6),
  hit("e", ["t3"], 5),
  hit("f", ["t1", "t4"], 4),
];

describe("evidence cover", () => {
  it("puts hits that bring a new source turn before those whose turns are covered", () => {
    assert.deepEqual(
      coverFirst(RANKED, 4).map((h) => h.id),
      ["a", "d", "e", "f"],
    );
  });

  it("fills the rest of k with the covered hits, in their order", () => {
    assert.deepEqual(
      coverFirst(RANKED, 6).map((h) => h.id),
      ["a", "d", "e", "f", "b", "c"],
    );
    assert.deepEqual(
      coverFirst(RANKED.slice(0, 3), 3).map((h) => h.id),
      ["a", "b", "c"],
    );
  });

  it("counts a hit without source turns as its own evidence", () => {
    const own = hit("own", [], 7.5);
    assert.deepEqual(
      coverFirst([RANKED[0]!, RANKED[1]!, own, RANKED[3]!], 3).map((h) => h.id),
      ["a", "own", "d"],
    );
  });

  it("reads k × 1.5 deep", () => {
    assert.equal(coverDepth(10), 15);
    assert.equal(coverDepth(5), 8);
    assert.equal(coverDepth(3), 5);
  });

  it("is how an ordinary recall picks its k, and a question about history keeps its chains", async () => {
    const asked: MemorySearch[] = [];
    const retriever: Retriever = {
      specificationVersion: "v1",
      async searchMemories(_scope, search) {
        asked.push(search);
        return RANKED.slice(0, search.k);
      },
      async searchTurns() {
        return [];
      },
    };
    const store = new SqliteStore(":memory:");
    const scope = { tenant: "t", agent: "ava" };
    const { hits } = await searchWithHistory(retriever, store, scope, { query: "what does sam do?", k: 3 });
    assert.equal(asked[0]!.k, 5, "asks for k × 1.5");
    assert.deepEqual(
      hits.map((h) => h.id),
      ["a", "d", "e"],
    );
    await store.close();
  });

  it("brings back the turns no shown memory was made from, in the turn ranker's order, at most n", () => {
    const turn = (id: string, score: number): RecallHit => ({ ...hit(id, [id], score), kind: "turn" });
    const turns = [turn("t2", 9), turn("t5", 8), turn("t1", 7), turn("t6", 6), turn("t7", 5)];
    const shown = [RANKED[0]!, RANKED[3]!]; // made from t1 and t2
    assert.deepEqual(
      missedTurns(shown, turns, 2).map((h) => h.id),
      ["t5", "t6"],
    );
    assert.deepEqual(
      missedTurns(shown, turns, 9).map((h) => h.id),
      ["t5", "t6", "t7"],
    );
    assert.deepEqual(missedTurns(shown, turns, 0), []);
    assert.deepEqual(
      missedTurns([], turns.slice(0, 2), 5).map((h) => h.id),
      ["t2", "t5"],
    );
  });

  it("reads the turn ranker deep enough to find n turns no shown memory or standing item covers", async () => {
    const turn = (id: string, score: number): RecallHit => ({ ...hit(id, [id], score), kind: "turn" });
    const ranked = ["t1", "t2", "t3", "t4", "t5", "t6"].map((id, i) => turn(id, 10 - i));
    const asked: number[] = [];
    const retriever: Retriever = {
      specificationVersion: "v1",
      async searchMemories() {
        return [];
      },
      async searchTurns(_scope, search) {
        asked.push(search.k);
        return ranked.slice(0, search.k);
      },
    };
    const scope = { tenant: "t", agent: "ava" };
    // One memory made from three turns, a standing item from a fourth: the first four are shown.
    const memory = hit("m", ["t1", "t2", "t3"], 9);
    const standing = hit("s", ["t4"], 1);
    const shown = await withMissedTurns(retriever, scope, [memory], { query: "what?" }, 2, [standing]);
    assert.deepEqual(
      shown.map((h) => h.id),
      ["m", "t5", "t6"],
    );
    assert.equal(asked[0], 6, "as deep as the turns shown and the two asked for");
  });
});
