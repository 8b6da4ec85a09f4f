/**
 * Runs a Python example with python3 in its page's workspace, with the repository's client
 * (clients/python) importable and the environment the page's shell blocks exported (the server's
 * key, for instance).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { atPageLines, type BlockResult } from "./block-result.js";
import type { DocBlock } from "./doc-blocks.js";
import type { PageWorkspace } from "./page-workspace.js";

const CLIENT = new URL("../../clients/python", import.meta.url).pathname;

/** Runs the block; a traceback's lines are the page's. */
export async function runPythonBlock(block: DocBlock, page: PageWorkspace): Promise<BlockResult> {
  const file = join(page.dir, `block-${block.line}.py`);
  writeFileSync(file, atPageLines(block, page.withPort(block.code)));
  const env = { ...page.env(), PYTHONPATH: CLIENT, PYTHONDONTWRITEBYTECODE: "1" };
  return new Promise((resolve) => {
    const child = spawn("python3", [file], { cwd: page.dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ code: status ?? (signal ? 128 : 1), stdout, stderr: stderr.replaceAll(file, block.file) });
    });
  });
}
