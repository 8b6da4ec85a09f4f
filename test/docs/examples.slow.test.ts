/**
 * Every example in the README, docs/ and the Python client's README runs, page by page, blocks
 * in page order (a later block may use what an earlier one stored or set): TypeScript against
 * the package's source, shell through bash with `memlane` run in this process and `memlane serve`
 * on a free loopback port, Python with python3 against that server. No block needs the network
 * or a model key. A block that cannot run here is marked `<!-- not run: why -->` and reported
 * as skipped with that reason. The convention: CONTRIBUTING.md.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type BlockResult, describeFailure } from "./block-result.js";
import { type DocBlock, readDocBlocks } from "./doc-blocks.js";
import { openPageWorkspace, type PageWorkspace } from "./page-workspace.js";
import { runPythonBlock } from "./python-block.js";
import { isTranscript, runShellBlock, shownOutput, stableOutput } from "./shell-block.js";
import { runTsBlock } from "./ts-block.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The pages whose examples run. */
const PAGES = [
  "README.md",
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
  "clients/python/README.md",
];

const python = spawnSync("python3", ["--version"]).status === 0;

function run(block: DocBlock, page: PageWorkspace): Promise<BlockResult> {
  if (block.language === "ts") return runTsBlock(block, page);
  if (block.language === "python") return runPythonBlock(block, page);
  return runShellBlock(block, page);
}

/**
 * The page's line that failed: from the prelude's "block line n" (shell), the first frame in the
 * page (a TypeScript stack), or the last one (a Python traceback, innermost last).
 */
function failedLine(block: DocBlock, result: BlockResult): string {
  const shell = /block line (\d+) exited/.exec(result.stderr)?.[1];
  if (shell) return ` at ${block.file}:${block.line + Number(shell)}`;
  const escaped = block.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const ts = new RegExp(`${escaped}:(\\d+)`).exec(result.stderr)?.[1];
  if (block.language === "ts" && ts) return ` at ${block.file}:${ts}`;
  const python = [...result.stderr.matchAll(new RegExp(`File "${escaped}", line (\\d+)`, "g"))].pop()?.[1];
  return python ? ` at ${block.file}:${python}` : "";
}

for (const file of PAGES) {
  let blocks: DocBlock[];
  try {
    blocks = readDocBlocks(`${ROOT}${file}`, file);
  } catch (error) {
    it(`${file} marks its examples well`, () => assert.fail((error as Error).message));
    continue;
  }
  if (blocks.length === 0) continue;
  describe(`the examples of ${file}`, () => {
    let page: PageWorkspace;
    before(async () => {
      page = await openPageWorkspace();
    });
    after(async () => page?.close());

    for (const block of blocks) {
      const skip =
        block.skip ??
        (block.language === "python" && !python ? "python3 is not on this machine's PATH" : undefined);
      it(`${file}:${block.line} (${block.language})`, { skip, timeout: 180_000 }, async () => {
        const result = await run(block, page);
        assert.equal(result.code, 0, describeFailure(block, result, `failed${failedLine(block, result)}`));
        if (block.language === "sh" && isTranscript(block)) {
          assert.equal(
            stableOutput(result.stdout),
            stableOutput(shownOutput(block)),
            `${block.file}:${block.line}: the output the page shows is not what the commands print`,
          );
        }
      });
    }
  });
}
