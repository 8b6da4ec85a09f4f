import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { ConflictError, InvalidInputError } from "../../core/errors.js";

const quiet = { debug() {}, warn() {}, error() {} };

describe("session.addTurns", () => {
  it("records several turns in order, and a list with a bad turn stores none of it", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const s = await mem.session({ agent: "ava", partner: "kim", at: "2024-03-02T18:00" });
    const bad: [unknown[], string][] = [
      [
        [
          { speaker: "kim", text: "I keep bees." },
          { speaker: "bob", text: "So do I." },
        ],
        "1.speaker",
      ],
      [
        [
          { speaker: "kim", text: "I keep bees." },
          { speaker: "kim", text: " " },
        ],
        "1.text",
      ],
      [[{ speaker: "kim", text: "I keep bees.", hives: 3 }], "0.hives"],
      [[{ speaker: "kim", text: "I keep bees.", at: "2024-03-01T10:00" }], "0.at"],
      [[], "turns"],
    ];
    for (const [turns, field] of bad)
      await assert.rejects(s.addTurns(turns as never), (e: InvalidInputError) => {
        assert.ok(e instanceof InvalidInputError, String(e));
        assert.equal(e.details.field, field, e.message);
        return true;
      });
    assert.deepEqual(await s.turns(), []);
    const added = await s.addTurns([
      { speaker: "kim", text: "I keep bees." },
      { speaker: "ava", text: "How many hives?", at: "2024-03-02T18:01" },
    ]);
    assert.deepEqual(
      added.map((t) => [t.index, t.speaker]),
      [
        [0, "kim"],
        [1, "ava"],
      ],
    );
    // The floor is the last stored turn's time now.
    await assert.rejects(s.addTurns([{ speaker: "kim", text: "Three.", at: "2024-03-02T18:00" }]), {
      code: "INVALID_INPUT",
    });
    await (await s.close()).done;
    const again = await mem.resume("ava", s.id).catch((e: unknown) => e);
    assert.ok(again instanceof ConflictError);
    await mem.close();
  });
});
