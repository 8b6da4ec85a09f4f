/**
 * Every strategy against a model that slips the way real ones do (memlane/testing's misbehaving
 * server): in every family, every reply returns text, every session's memories land or each
 * failure is recorded as a failed operation, and once the model recovers `retry` runs them all.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MODEL_FAMILIES, type ModelFamily } from "../../src/testing/misbehaving-model.js";
import { runModelBehaviour } from "../../src/testing/model-behaviour.js";

const STRATEGIES = ["carecall", "creem", "memochat", "theanine", "emma"];

/** Families whose slips are all read or repaired: nothing may fail in them. */
const REPAIRABLE: ModelFamily[] = [
  "clean",
  "fenced",
  "prose-around",
  "wrong-keys",
  "one-based",
  "n-hash-m",
  "rate-limited",
  "server-error",
];

/** Short deadlines, so a family that drips or hangs costs little. */
const timing = (family: string) =>
  family === "drip" || family === "hang" ? { timeoutMs: 500, maxRetries: 0 } : {};

// The families run side by side: each waits on its own loopback server, not on the processor.
for (const strategy of STRATEGIES)
  describe(`model behaviour: ${strategy} against every family`, { concurrency: true }, () => {
    for (const family of MODEL_FAMILIES)
      it(`${family}: replies return, sessions land or record their failures`, async () => {
        const o = await runModelBehaviour({ strategy, family, ...timing(family) });
        assert.deepEqual(o.replies.errors, [], "replies that threw");
        assert.equal(o.replies.returned, o.replies.asked, "replies returned");
        assert.deepEqual(o.sessions.lost, [], "sessions neither landed nor recorded");
        if (REPAIRABLE.includes(family))
          assert.equal(o.sessions.whole, o.sessions.total, "sessions landed whole");
        // Once the model answers again, `retry` runs every recorded failure and nothing waits.
        assert.deepEqual(o.afterRetry, { landed: o.sessions.total, waiting: 0 }, "after the model recovers");
      });
  });
