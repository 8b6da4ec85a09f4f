import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { docBlocks } from "./doc-blocks.js";

const page = [
  "# A page", // 1
  "", // 2
  "```ts", // 3
  'const a = "run";', // 4
  "```", // 5
  "<!-- not run: needs a model key -->", // 6
  "```sh", // 7
  "memlane chat", // 8
  "```", // 9
  "```json", // 10
  '{ "illustration": true }', // 11
  "```", // 12
  "- a list", // 13
  "  ```python", // 14
  "  print('indented')", // 15
  "  ```", // 16
].join("\n");

describe("docBlocks", () => {
  it("finds the runnable blocks with their fence's line, and the marked one's reason", () => {
    assert.deepEqual(
      docBlocks("p.md", page).map(({ line, language, code, skip }) => ({ line, language, code, skip })),
      [
        { line: 3, language: "ts", code: 'const a = "run";', skip: null },
        { line: 7, language: "sh", code: "memlane chat", skip: "needs a model key" },
        { line: 14, language: "python", code: "print('indented')", skip: null },
      ],
    );
  });

  it("refuses a marker that sits anywhere but directly above a fence, or gives no reason", () => {
    assert.throws(
      () => docBlocks("p.md", "<!-- not run: why -->\n\n```sh\nls\n```"),
      /p\.md:1: .*directly above/,
    );
    assert.throws(() => docBlocks("p.md", "<!-- not run -->\n```sh\nls\n```"), /p\.md:1: write the marker/);
  });

  it("does not take a fence inside a block for a new block", () => {
    const blocks = docBlocks("p.md", "````md\n```ts\nnot code\n```\n````\n```ts\nx\n```");
    assert.deepEqual(
      blocks.map((b) => b.line),
      [6],
    );
  });
});
