/**
 * A doc example that fails fails its test, naming the page and the line: a TypeScript block that
 * throws, a shell command that exits non-zero, a curl that gets an HTTP error, a Python traceback.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, it } from "node:test";
import type { DocBlock } from "./doc-blocks.js";
import { openPageWorkspace, type PageWorkspace } from "./page-workspace.js";
import { runPythonBlock } from "./python-block.js";
import { runShellBlock } from "./shell-block.js";
import { runTsBlock } from "./ts-block.js";

const block = (language: DocBlock["language"], code: string): DocBlock => ({
  file: "docs/page.md",
  line: 10,
  language,
  code,
  skip: null,
});

describe("the doc example runners", () => {
  let page: PageWorkspace;
  before(async () => {
    page = await openPageWorkspace();
  });
  after(async () => page?.close());

  it("reports a TypeScript block's throw at the page's line", async () => {
    const run = await runTsBlock(block("ts", 'const a = 1;\nthrow new Error("broken example");'), page);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /broken example/);
    assert.match(run.stderr, /docs\/page\.md:12/);
  });

  it("runs shell blocks in order, keeping the variables one sets for the next", async () => {
    const set = await runShellBlock(block("sh", 'NAME=ava\nexport LOUD="$NAME!"'), page);
    assert.equal(set.code, 0, set.stderr);
    const read = await runShellBlock(block("sh", 'echo "$NAME $LOUD"'), page);
    assert.equal(read.stdout, "ava ava!\n");
  });

  it("fails a shell block at the first failing command, naming its line", async () => {
    const run = await runShellBlock(block("sh", "echo one\nmemlane recall --agent ava\necho three"), page);
    assert.notEqual(run.code, 0);
    assert.equal(run.stdout, "one\n");
    assert.match(run.stderr, /block line 2 exited/);
  });

  it("refuses a block that sends a command to the background", async () => {
    const run = await runShellBlock(block("sh", "sleep 1 &\necho done"), page);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /background/);
    assert.equal((await runShellBlock(block("sh", "true && echo fine"), page)).code, 0);
  });

  it("fails on an HTTP error and refuses any host but loopback", async () => {
    const missing = await runShellBlock(block("sh", `curl -s ${page.relay.url}nowhere`), page);
    assert.notEqual(missing.code, 0);
    const away = await runShellBlock(block("sh", "curl -s https://example.com/"), page);
    assert.match(away.stderr, /loopback only/);
  });

  it("reports a Python traceback at the page's line", {
    skip: spawnSync("python3", ["--version"]).status === 0 ? false : "no python3",
  }, async () => {
    const run = await runPythonBlock(block("python", "x = 1\nraise ValueError('broken example')"), page);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /File "docs\/page\.md", line 12/);
  });
});
