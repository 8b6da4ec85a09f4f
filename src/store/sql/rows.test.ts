/**
 * Stored rows as domain objects: SQLite hands JSON columns back as text, Postgres drivers may hand
 * them back parsed, numbers may come back as strings, and NULL columns stay null (not "null").
 * Vectors go to bytes and back without loss, whatever the alignment of the buffer read.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  blobToVector,
  jsonColumn,
  toEdge,
  toMemory,
  toOperation,
  toSession,
  toTurn,
  vectorToBlob,
} from "./rows.js";

describe("rows", () => {
  const jsonCases: [unknown, unknown][] = [
    ['{"a":1}', { a: 1 }],
    ["[1,2]", [1, 2]],
    ["null", null],
    [{ a: 1 }, { a: 1 }], // already parsed by the driver
    [null, null],
    [undefined, undefined],
  ];
  for (const [stored, value] of jsonCases)
    test(`a JSON column stored as ${JSON.stringify(stored) ?? "undefined"} reads as ${JSON.stringify(value) ?? "undefined"}`, () => {
      assert.deepEqual(jsonColumn(stored), value);
    });

  test("a JSON column holding text that is not JSON throws rather than passing the text on", () => {
    assert.throws(() => jsonColumn("not json"), SyntaxError);
  });

  test("a memory row keeps null invalid_at and session_id as null, and parses its JSON from text or as given", () => {
    const row = {
      id: "m1",
      tenant: "t",
      agent: "a",
      about: "bob",
      text: "x",
      kind: "fact",
      strategy: "emma",
      observed_at: "2024",
      recorded_at: "2025",
      status: "active",
      invalid_at: null,
      session_id: undefined,
      source_turns: '["u1"]',
      attributes: { k: 1 },
    };
    const m = toMemory(row);
    assert.equal(m.invalidAt, null);
    assert.equal(m.sessionId, null);
    assert.deepEqual(m.sourceTurns, ["u1"]);
    assert.deepEqual(m.attributes, { k: 1 });
    assert.equal(toMemory({ ...row, invalid_at: "2026", session_id: 7 }).sessionId, "7");
  });

  test("a turn row's index becomes a number, whatever the driver returned", () => {
    const t = toTurn({
      id: "u",
      tenant: "t",
      agent: "a",
      session_id: "s",
      idx: "3",
      speaker: "bob",
      text: "hi",
      at: "x",
      meta: "{}",
    });
    assert.equal(t.index, 3);
    assert.equal(t.sessionId, "s");
    assert.deepEqual(t.meta, {});
  });

  test("a session row maps recorded_at and parses partners", () => {
    const s = toSession({
      id: "s",
      tenant: "t",
      agent: "a",
      partners: '["bob"]',
      at: "x",
      status: "open",
      strategy: "e",
      meta: "{}",
      recorded_at: "r",
    });
    assert.deepEqual([s.partners, s.recordedAt, s.status], [["bob"], "r", "open"]);
  });

  test("an edge row maps src and dst to from and to", () => {
    const e = toEdge({
      id: "e",
      tenant: "t",
      agent: "a",
      src: "m1",
      dst: "m2",
      type: "Cause",
      attributes: "{}",
      recorded_at: "r",
    });
    assert.deepEqual([e.from, e.to, e.type], ["m1", "m2", "Cause"]);
  });

  test("an operation row carries the memory ids given, its usage as numbers and nulls kept", () => {
    const o = toOperation(
      {
        id: "o",
        tenant: "t",
        agent: "a",
        type: "NEW",
        status: "done",
        strategy: "e",
        model: "m",
        session_id: null,
        inputs: '{"x":1}',
        outputs: "null",
        rationale: null,
        error: null,
        calls: "2",
        prompt_tokens: 10,
        completion_tokens: "5",
        latency_ms: "1.5",
        at: "a",
        recorded_at: "r",
      },
      ["m1"],
    );
    assert.deepEqual(o.usage, { calls: 2, promptTokens: 10, completionTokens: 5, latencyMs: 1.5 });
    assert.deepEqual(
      [o.sessionId, o.rationale, o.error, o.outputs, o.memoryIds],
      [null, null, null, null, ["m1"]],
    );
    assert.deepEqual(o.inputs, { x: 1 });
  });

  test("a vector survives bytes and back, including from a view into a larger buffer", () => {
    const v = new Float32Array([0.5, -1.25, 3e-8, 42]);
    const blob = vectorToBlob(v);
    assert.equal(blob.byteLength, 16);
    assert.deepEqual([...blobToVector(blob)], [...v]);
    // A driver may hand back bytes at an odd offset of a shared buffer.
    const shared = new Uint8Array(1 + blob.byteLength);
    shared.set(blob, 1);
    assert.deepEqual([...blobToVector(shared.subarray(1))], [...v]);
  });

  test("a vector that is a view of a larger array writes only its own bytes", () => {
    const whole = new Float32Array([1, 2, 3, 4]);
    assert.deepEqual([...blobToVector(vectorToBlob(whole.subarray(1, 3)))], [2, 3]);
  });

  test("the vector read is a copy: changing the bytes afterwards does not change it", () => {
    const blob = vectorToBlob(new Float32Array([1, 2]));
    const v = blobToVector(blob);
    blob.fill(0);
    assert.deepEqual([...v], [1, 2]);
  });
});
