import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mapInSlices, SLICE_MS } from "./yield-to-loop.js";

/** Holds the thread for `ms`, as a slow row conversion would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("mapInSlices", () => {
  it("maps like Array.map, in order", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    assert.deepEqual(
      await mapInSlices(items, (i) => i * 2),
      items.map((i) => i * 2),
    );
    assert.deepEqual(await mapInSlices([], (i: number) => i), []);
  });

  it("lets other callers run once a slice is spent, not only at the end", async () => {
    let ranAfter = -1;
    let done = 0;
    // Scheduled before the work starts: with no pause it could run only after all of it.
    setImmediate(() => {
      ranAfter = done;
    });
    await mapInSlices([1, 2, 3, 4], (x) => {
      busy(SLICE_MS + 5);
      done++;
      return x;
    });
    assert.ok(ranAfter >= 1 && ranAfter < 4, `the other caller ran after ${ranAfter} of 4 items`);
  });
});
