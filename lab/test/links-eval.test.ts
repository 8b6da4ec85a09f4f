import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { RELATIONS_OR_NONE } from "../../src/core/relations.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { UniversalSentenceEncoder } from "../../src/models/use-embedder.js";
import { evaluateLinks, linksMarkdown, parseLinksJsonl } from "../eval/links/evaluate.js";

const DEV = readFileSync(new URL("../data/theanine/links-dev.jsonl", import.meta.url), "utf8");

describe("eval links", () => {
  it("the dev set covers every relation and None with at least 30 pairs", () => {
    const examples = parseLinksJsonl(DEV);
    assert.ok(examples.length >= 30);
    for (const r of RELATIONS_OR_NONE)
      assert.ok(
        examples.some((e) => e.relation === r),
        r,
      );
  });

  it("refuses unknown labels and bad lines", () => {
    assert.throws(
      () => parseLinksJsonl('{"older": "a", "newer": "b", "relation": "Likes"}'),
      InvalidInputError,
    );
    assert.throws(() => parseLinksJsonl("nope"), /line 1: not JSON/);
  });

  it("scores the offline linker on the dev set", async () => {
    const embedder = new CachedEmbedder(new UniversalSentenceEncoder());
    // The hand-written rules were tuned on this set: regression guards only.
    const report = await evaluateLinks(
      parseLinksJsonl(DEV),
      new OfflineCognition(embedder, { relationLinker: null }),
    );
    assert.ok(report.exact >= 0.75, `exact ${report.exact}`);
    assert.ok(report.linkedVsNone >= 0.85, `linked ${report.linkedVsNone}`);
    assert.equal(report.confusion.None!.None, 6);
    assert.match(linksMarkdown(report), /\| HinderedBy \|/);
    // The trained linker never saw this set: held-out for it.
    const learned = await evaluateLinks(parseLinksJsonl(DEV), new OfflineCognition(embedder));
    assert.ok(learned.exact >= 0.45, `learned exact ${learned.exact}`);
    assert.ok(learned.linkedVsNone >= 0.8, `learned linked ${learned.linkedVsNone}`);
  });
});
