import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../../core/errors.js";
import type { Memory } from "../../core/types.js";
import type { Memlane } from "../memlane.js";

/** An engine holding what Sam said in one session, kept statement by statement. */
async function withSam(lines: string[]): Promise<{ mem: Memlane; memories: Memory[] }> {
  const mem = await testMemlane({ strategy: "accumulate" });
  const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
  for (const line of lines) await s.turn("sam", line);
  await (await s.close()).done;
  return { mem, memories: await mem.memories("ava") };
}

const about = (memories: Memory[], word: RegExp) => memories.find((m) => word.test(m.text))!;

describe("correction: update, restore, add", () => {
  it("update supersedes with the caller's text and restore walks it back, both in history", async () => {
    const { mem, memories } = await withSam(["I work as a nurse in Leeds."]);
    const old = about(memories, /nurse/);
    assert.ok(old, "the premise: a memory of the job");
    const updated = await mem.update("ava", old.id, "Sam works as a midwife in Leeds.", {
      meta: { by: "sam" },
    });
    const fresh = updated.memory;
    assert.equal(fresh.status, "active");
    assert.equal(fresh.text, "Sam works as a midwife in Leeds.");
    assert.deepEqual(
      [fresh.about, fresh.kind, fresh.strategy, fresh.observedAt, fresh.sessionId],
      [old.about, old.kind, old.strategy, old.observedAt, old.sessionId],
    );
    assert.deepEqual(fresh.sourceTurns, old.sourceTurns, "the evidence is carried over");
    assert.deepEqual(fresh.attributes.audience, ["sam"]);
    assert.deepEqual(fresh.attributes.meta, { by: "sam" });
    assert.equal(updated.superseded.status, "superseded");
    assert.ok(updated.superseded.invalidAt);
    const op = updated.operation;
    assert.equal(op.type, "UPDATE");
    assert.equal(op.model, "caller");
    assert.deepEqual(op.memoryIds.sort(), [old.id, fresh.id].sort());
    assert.match(JSON.stringify([op.inputs, op.outputs]), /nurse.*midwife/);
    const edges = await mem.edges("ava");
    assert.ok(edges.some((e) => e.type === "Supersedes" && e.from === fresh.id && e.to === old.id));
    const newHistory = await mem.history("ava", fresh.id);
    assert.deepEqual(
      newHistory.replaces.map((m) => m.id),
      [old.id],
    );
    assert.match(
      newHistory.corrections[0]!.text,
      /^updated by the caller on \d+ \w+ \d{4}: this version replaced “Sam works as a nurse/,
    );
    const oldHistory = await mem.history("ava", old.id);
    assert.deepEqual(
      oldHistory.replacedBy.map((m) => m.id),
      [fresh.id],
    );
    assert.match(oldHistory.corrections[0]!.text, /became “Sam works as a midwife/);
    // Recall finds the correction, not the version it replaced.
    const hits = (await mem.recall({ agent: "ava", about: "sam", query: "midwife nurse job" })).hits;
    assert.ok(hits.some((h) => h.id === fresh.id));
    assert.ok(!hits.some((h) => h.id === old.id && h.status !== "past"));

    // A past version cannot be updated; the error names the current one, and nothing changes.
    const before = await mem.memories("ava", { status: "any" });
    await assert.rejects(mem.update("ava", old.id, "Sam is a doctor."), (error: ConflictError) => {
      assert.ok(error instanceof ConflictError);
      assert.deepEqual(error.details.current, [fresh.id]);
      assert.match(error.message, new RegExp(fresh.id));
      return true;
    });
    assert.deepEqual(await mem.memories("ava", { status: "any" }), before);

    const restored = await mem.restore("ava", old.id);
    assert.equal(restored.memory.status, "active");
    assert.equal(restored.memory.invalidAt, null);
    assert.deepEqual(
      restored.retired.map((m) => [m.id, m.status]),
      [[fresh.id, "superseded"]],
    );
    assert.equal(restored.operation.type, "RESTORE");
    assert.equal(restored.operation.model, "caller");
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.id),
      [old.id],
    );
    assert.match(
      (await mem.history("ava", old.id)).corrections.at(-1)!.text,
      /^restored on .*: current again, retiring “Sam works as a midwife/,
    );
    assert.match(
      (await mem.history("ava", fresh.id)).corrections.at(-1)!.text,
      /^retired on .* restored “Sam works as a nurse/,
    );
    await assert.rejects(
      mem.restore("ava", old.id),
      (e: ConflictError) => e.details.reason === "already-current",
    );

    // Restoring the correction retires the version a restore brought back: one current at a time.
    const again = await mem.restore("ava", fresh.id);
    assert.deepEqual(
      again.retired.map((m) => m.id),
      [old.id],
    );
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.id),
      [fresh.id],
    );
    const chain = (await mem.timeline("ava", fresh.id)).chain.map((e) => e.id);
    assert.deepEqual(chain, [old.id, fresh.id]);
    await mem.close();
  });

  it("of two corrections racing on one memory, one lands and the other is a conflict", async () => {
    const { mem, memories } = await withSam(["I work as a nurse in Leeds."]);
    const m = memories[0]!;
    const results = await Promise.allSettled([
      mem.update("ava", m.id, "Sam works as a midwife in Leeds."),
      mem.update("ava", m.id, "Sam works as a porter in Leeds."),
    ]);
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    assert.ok(refused.reason instanceof ConflictError);
    assert.equal((await mem.memories("ava")).length, 1, "one current version");
    assert.equal((await mem.operations("ava", { type: "UPDATE" })).length, 1);
    await mem.close();
  });

  it("refuses bad corrections and changes nothing", async () => {
    const { mem, memories } = await withSam(["I work as a nurse in Leeds."]);
    const m = memories[0]!;
    const snapshot = async () => [await mem.memories("ava", { status: "any" }), await mem.operations("ava")];
    const before = await snapshot();
    await assert.rejects(mem.update("ava", m.id, "   "), InvalidInputError);
    await assert.rejects(
      mem.update("ava", m.id, m.text),
      (e: InvalidInputError) => e.details.reason === "unchanged",
    );
    await assert.rejects(
      mem.update("ava", m.id, "Sam is a vet.", { metadata: {} } as never),
      (e: InvalidInputError) => e.details.field === "metadata",
    );
    await assert.rejects(mem.update("ava", "mem_nope", "Sam is a vet."), NotFoundError);
    await assert.rejects(mem.update("bob", m.id, "Sam is a vet."), NotFoundError, "another agent's id");
    await assert.rejects(mem.tenant("other").update("ava", m.id, "Sam is a vet."), NotFoundError);
    await assert.rejects(mem.restore("ava", "mem_nope"), NotFoundError);
    await assert.rejects(mem.restore("ava", m.id), ConflictError, "an active memory");
    for (const bad of [
      { about: "sam", text: "Sam has a cat.", user_id: "sam" },
      { about: "sam", text: "" },
      { about: " sam", text: "Sam has a cat." },
      { text: "Sam has a cat." },
      { about: "sam", text: "Sam has a cat.", at: "someday" },
    ])
      await assert.rejects(mem.add("ava", bad as never), InvalidInputError, JSON.stringify(bad));
    assert.deepEqual(await snapshot(), before);
    await mem.close();
  });

  it("add stores a fact as given, theirs to hear, and retires nothing", async () => {
    const { mem, memories } = await withSam(["I live in Leeds."]);
    const leeds = memories[0]!;
    const { memory, operation } = await mem.add("ava", {
      about: "sam",
      text: "Sam lived in York before.",
      at: "2023-01-05T09:00",
      meta: { source: "crm" },
    });
    assert.equal(memory.status, "active");
    assert.equal(memory.observedAt, "2023-01-05T09:00:00.000Z");
    assert.equal(memory.kind, "fact");
    assert.equal(memory.strategy, "accumulate");
    assert.deepEqual(memory.attributes.audience, ["sam"]);
    assert.deepEqual(memory.attributes.meta, { source: "crm" });
    assert.equal(operation.type, "ADD");
    assert.equal(operation.model, "caller");
    assert.equal((await mem.getMemory("ava", leeds.id))?.status, "active", "an older fact retires nothing");
    const forSam = await mem.recall({ agent: "ava", about: "sam", query: "York" });
    assert.ok(forSam.hits.some((h) => h.id === memory.id));
    const forKim = await mem.recall({ agent: "ava", about: "kim", query: "York" });
    assert.ok(!forKim.hits.some((h) => h.id === memory.id), "another partner does not hear it");
    assert.match(
      (await mem.history("ava", memory.id)).corrections[0]!.text,
      /^added by the caller on .*dated 5 January 2023/,
    );
    await mem.close();
  });

  it("keeps a private memory private after an update, and makes a sensitive fact private", async () => {
    const { mem, memories } = await withSam(["My bank PIN is 4321, please keep it secret."]);
    const pin = about(memories, /PIN/);
    assert.deepEqual(pin.attributes.privateTo, ["sam"], "the premise: private to Sam");
    const { memory } = await mem.update("ava", pin.id, "Sam's bank PIN is 9876.");
    assert.deepEqual(memory.attributes.privateTo, ["sam"]);
    assert.equal(memory.attributes.privateWhy, pin.attributes.privateWhy);
    const wide = await mem.recall({ agent: "ava", scope: "agent", about: "kim", query: "PIN" });
    assert.ok(!wide.hits.some((h) => h.id === memory.id));
    const added = await mem.add("ava", { about: "sam", text: "Sam has diabetes." });
    assert.deepEqual(added.memory.attributes.privateTo, ["sam"]);
    await mem.close();
  });

  it("forget of a correction keeps the version a restore made current, and forget of a current one takes its past", async () => {
    const { mem, memories } = await withSam(["I work as a nurse in Leeds."]);
    const old = memories[0]!;
    const { memory: fresh } = await mem.update("ava", old.id, "Sam works as a midwife in Leeds.");
    await mem.restore("ava", old.id);
    const report = await mem.forget({ agent: "ava", memoryIds: [fresh.id] });
    assert.equal(report.memories, 1);
    assert.equal((await mem.getMemory("ava", old.id))?.status, "active");
    const { memory: again } = await mem.update("ava", old.id, "Sam works as a porter in Leeds.");
    const second = await mem.forget({ agent: "ava", memoryIds: [again.id] });
    assert.equal(second.memories, 2, "the current version and the one it replaced, as before");
    assert.deepEqual(await mem.memories("ava", { status: "any" }), []);
    await mem.close();
  });
});
