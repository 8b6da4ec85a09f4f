import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "../../core/errors.js";
import { decodeCursor, encodeCursor } from "./cursor.js";

describe("list cursors", () => {
  it("round-trip a key as an opaque base64url string", () => {
    const key = ["2024-03-02T18:00:00.000Z", "2024-03-02T18:00:01.000Z", "mem_x/ü"];
    const cursor = encodeCursor("memories", "asc", key);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(cursor, "memories", "asc"), key);
  });

  it("refuses a cursor of another list, of the other order, or not made by memlane", () => {
    const cursor = encodeCursor("memories", "asc", ["a", "b", "c"]);
    for (const [bad, table, direction] of [
      [cursor, "sessions", "asc"],
      [cursor, "memories", "desc"],
      ["not a cursor!", "memories", "asc"],
      [Buffer.from("{}").toString("base64url"), "memories", "asc"],
      [Buffer.from('["memories","asc",1]').toString("base64url"), "memories", "asc"],
      [Buffer.from('["memories","asc"]').toString("base64url"), "memories", "asc"],
    ] as const)
      assert.throws(
        () => decodeCursor(bad, table, direction),
        (e) => e instanceof InvalidInputError && e.details.field === "cursor",
        bad,
      );
  });
});
