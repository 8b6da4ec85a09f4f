/**
 * Every strategy against a model that slips the way real ones do (memlane/testing's misbehaving
 * server): in every family, every reply returns text, and every session's memories land or each
 * failure is recorded as a failed operation.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MODEL_FAMILIES } from "../../src/testing/misbehaving-model.js";
import { runModelBehaviour } from "../../src/testing/model-behaviour.js";

const STRATEGIES = ["carecall", "creem", "memochat", "theanine", "emma"];

/** Short deadlines, so a family that drips or hangs costs little. */
const timing = (family: string) =>
  family === "drip" || family === "hang" ? { timeoutMs: 150, maxRetries: 0 } : {};

describe("model behaviour: every strategy against every family of misbehaviour", () => {
  for (const strategy of STRATEGIES)
    it(`${strategy}: replies always return, sessions land or record their failures`, async () => {
      const outcomes = await Promise.all(
        MODEL_FAMILIES.map((family) => runModelBehaviour({ strategy, family, ...timing(family) })),
      );
      for (const o of outcomes) {
        assert.deepEqual(o.replies.errors, [], `${strategy} / ${o.family}: replies that threw`);
        assert.equal(o.replies.returned, o.replies.asked, `${strategy} / ${o.family}: replies returned`);
        assert.deepEqual(
          o.sessions.lost,
          [],
          `${strategy} / ${o.family}: sessions neither landed nor recorded`,
        );
      }
      // A cooperative model and one whose slips are repairable lose nothing.
      for (const o of outcomes.filter((x) =>
        ["clean", "fenced", "prose-around", "one-based", "n-hash-m", "rate-limited", "server-error"].includes(
          x.family,
        ),
      ))
        assert.equal(o.sessions.landed, o.sessions.total, `${strategy} / ${o.family}: sessions landed`);
    });
});
