import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RELATEDNESS_LABELS } from "../../src/cognition/offline/learned/pair-model.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import type { CarecallExample } from "../eval/carecall/dataset.js";
import { withForeignMemories } from "../eval/memory-ops/foreign-memories.js";
import { fitPairModel, pairTrainingRows } from "../eval/memory-ops/train.js";

function episode(
  id: string,
  about: string,
  domain: string | undefined,
  memory: string[],
  summary: string[],
  style = "named",
): CarecallExample {
  return {
    id,
    about,
    named: true,
    style,
    domain,
    memory,
    summary,
    gold: [...memory, ...summary],
    pairs: memory.flatMap((_, m) => summary.map((_, s) => ({ m, s, op: "REPLACE" as const }))),
    line: 1,
  };
}

const ana = episode("a", "Ana", "home", ["Ana lives in Porto."], ["Ana moved to Lisbon."]);
const ben = episode("b", "Ben", "work", ["Ben moved to Lisbon for work.", "Ben is a chef."], ["Ben quit."]);
const cal = episode("c", "Cal", "home", ["Cal moved to Lisbon."], ["Cal rents a flat."]);
const dee = episode("d", "Dee", "work", ["Dee moved to Lisbon."], ["Dee is a baker."], "fragment");

describe("withForeignMemories", () => {
  it("adds the closest memories of other-domain, same-style episodes as APPEND pairs, renamed", async () => {
    const [a] = await withForeignMemories([ana, ben, cal, dee], new HashEmbedder(64), 1);
    assert.equal(a!.memory.length, 2);
    // Cal is in Ana's domain and Dee writes in another style: only Ben's memories qualify.
    assert.match(a!.memory[1]!, /^Ana (moved to Lisbon for work|is a chef)\.$/);
    assert.deepEqual(a!.pairs!.slice(1), [{ m: 1, s: 0, op: "APPEND" }]);
    assert.deepEqual(a!.pairs![0], ana.pairs![0], "the labelled pairs are kept as they were");
  });

  it("picks the foreign memory closest to a summary sentence first", async () => {
    const embedder = new HashEmbedder(256);
    const [a] = await withForeignMemories([ana, ben], embedder, 2);
    assert.deepEqual(a!.memory.slice(1).sort(), ["Ana is a chef.", "Ana moved to Lisbon for work."]);
    const [one] = await withForeignMemories([ana, ben], embedder, 1);
    assert.equal(one!.memory[1], a!.memory[1], "the same first choice whatever the count");
  });

  it("leaves episodes without a domain, and a count of 0, unchanged", async () => {
    const loose = { ...ana, domain: undefined };
    const [l] = await withForeignMemories([loose, ben], new HashEmbedder(64), 3);
    assert.equal(l, loose);
    const none = await withForeignMemories([ana, ben], new HashEmbedder(64), 0);
    assert.deepEqual(none, [ana, ben]);
  });
});

describe("pairTrainingRows and fitPairModel (the relatedness gate)", () => {
  const embedder = new HashEmbedder(64);

  it("flags the foreign rows; the operator learns from gold pairs only, the gate from both", async () => {
    const rows = await pairTrainingRows([ana, ben, cal, dee], embedder, 1);
    const foreign = rows.filter((r) => r.foreign);
    assert.ok(foreign.length > 0 && foreign.every((r) => r.y === "APPEND"));
    assert.equal(rows.length - foreign.length, 1 + 2 + 1 + 1, "one row per labelled pair");
    const model = fitPairModel(rows, embedder, "test");
    assert.deepEqual(model.relatedness?.labels, RELATEDNESS_LABELS);
    const gold = fitPairModel(
      rows.filter((r) => !r.foreign),
      embedder,
      "test",
    );
    assert.equal(gold.relatedness, undefined, "no foreign rows: no gate");
    assert.deepEqual(gold.model, model.model, "foreign rows do not reach the operator");
  });
});
