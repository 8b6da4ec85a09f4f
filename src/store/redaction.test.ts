import assert from "node:assert/strict";
import { test } from "node:test";
import { seededRandom } from "../core/memory-graph.js";
import { REDACTED, Scrubber, scrub } from "./redaction.js";

/** The plain definition the index must agree with: every text, in order, replaced wherever it occurs. */
function plain(value: string, texts: string[]): string {
  let out = value;
  for (const t of texts) if (out.includes(t)) out = out.split(t).join(REDACTED);
  return out;
}

test("the indexed scrubber replaces exactly what asking every text would, on random text", () => {
  const random = seededRandom(11);
  const words = "sam moved to leeds with his dog biscuit and works nights at the hospital".split(" ");
  const sentence = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!).join(" ");
  const texts = [...new Set(Array.from({ length: 60 }, () => sentence(4 + Math.floor(random() * 8))))]
    .filter((t) => t.length >= 16)
    .sort((a, b) => b.length - a.length);
  // Texts that hold the replacement's brackets may appear only once another is replaced.
  texts.push(`${REDACTED} and the hospital`);
  const scrubber = new Scrubber(texts);
  for (let i = 0; i < 400; i++) {
    const value = Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
      random() < 0.5 ? texts[Math.floor(random() * texts.length)]! : sentence(1 + Math.floor(random() * 12)),
    ).join(" ");
    const got = scrubber.value(value);
    assert.equal(got.value, plain(value, texts), value);
    assert.equal(got.changed, got.value !== value);
  }
});

test("a scrubber reaches strings inside objects and arrays, and leaves other values alone", () => {
  const texts = ["Sam's PIN is 4321, do not share it"];
  const got = scrub({ a: [1, "he said Sam's PIN is 4321, do not share it."], b: null, c: true }, texts);
  assert.deepEqual(got, { value: { a: [1, `he said ${REDACTED}.`], b: null, c: true }, changed: true });
  assert.deepEqual(scrub("nothing here to see at all", texts), {
    value: "nothing here to see at all",
    changed: false,
  });
});
