/**
 * A replica's share and the index budget as `openMemlane` takes them: kept on the engine,
 * reported with the indexes held, and refused by name when they make no sense.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "../core/errors.js";
import { openMemlane } from "./open-memlane.js";

const quiet = { debug() {}, warn() {}, error() {} };

describe("openMemlane: replica and indexBudget", () => {
  it("keeps the share and reports the indexes held under the budget", async () => {
    const mem = await openMemlane({
      store: ":memory:",
      embedder: "hash",
      logger: quiet,
      replica: { index: 2, of: 3 },
      indexBudget: 64 * 1024 ** 2,
    });
    try {
      assert.deepEqual(mem.replica, { index: 2, of: 3 });
      assert.deepEqual(mem.tenant("acme").replica, { index: 2, of: 3 }, "every tenant view shares it");
      assert.deepEqual(mem.indexes(), { limit: 64 * 1024 ** 2, used: 0, count: 0 });
    } finally {
      await mem.close();
    }
    const lone = await openMemlane({ store: ":memory:", embedder: "hash", logger: quiet });
    assert.equal(lone.replica, null);
    await lone.close();
  });

  it("refuses a share out of range and a budget that is not a whole number of bytes, naming the field", async () => {
    for (const [config, field] of [
      [{ replica: { index: 3, of: 2 } }, "replica"],
      [{ replica: { index: 1, of: 0 } }, "replica"],
      [{ replica: "1/2" }, "replica"],
      [{ indexBudget: -1 }, "indexBudget"],
      [{ indexBudget: 1.5 }, "indexBudget"],
    ] as const)
      await assert.rejects(
        openMemlane({ store: ":memory:", embedder: "hash", logger: quiet, ...(config as object) }),
        (e: unknown) => e instanceof InvalidInputError && e.details.field === field,
        JSON.stringify(config),
      );
  });
});
