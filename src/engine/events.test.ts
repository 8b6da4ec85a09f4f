import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../test/fixtures/engine.js";
import type { Logger } from "./logger.js";

describe("engine: events", () => {
  it("reports a listener that throws to the logger, and the write still happens", async () => {
    const errors: string[] = [];
    const logger: Logger = { debug: () => undefined, warn: () => undefined, error: (m) => errors.push(m) };
    const mem = await testMemlane({ logger, strategy: "accumulate" });
    mem.on("job", () => {
      throw new Error("listener broke");
    });
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "I adopted a beagle called Biscuit.");
    const { done } = await s.close();
    assert.equal((await done)?.state, "done");
    assert.ok(errors.length >= 3, "queued, running and done were each reported");
    assert.match(errors[0]!, /"job" listener threw: listener broke/);
    assert.ok((await mem.memories("ava")).length > 0);
    await mem.close();
  });
});
