/**
 * Long work gives the event loop back, so timers (a server's job heartbeat,
 * its health checks) run while an ingest consolidates. Before, a whole ingest ran without one
 * timer firing. Only that the loop turns is asserted here; how long it is held is measured by
 * `npm run bench live` (stalls), not by a timed test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../src/testing/test-memlane.js";

describe("the event loop during long work", () => {
  it("fires timers while an ingest stores and consolidates forty sessions", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    const sessions = Array.from({ length: 40 }, (_, i) => ({
      id: `s${i}`,
      at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
      partner: "sam",
      turns: [
        {
          speaker: "sam",
          text: `I went to the pottery class number ${i} with my sister, and we made a bowl.`,
        },
        { speaker: "ava", text: "That sounds lovely." },
      ],
    }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await mem.ingest({ agent: "ava", sessions });
    const took = performance.now() - started;
    clearInterval(timer);
    assert.ok(took < 100 || ticks > 0, `no timer fired in ${took.toFixed(0)} ms of ingest`);
    assert.ok((await mem.memories("ava")).length > 0);
    await mem.close();
  });
});
