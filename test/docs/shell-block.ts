/**
 * Runs a shell example with bash, in its page's workspace, after `prelude.sh`. A block written
 * as a transcript (command lines start with `$ `, the other lines are what they print) runs its
 * commands and must print what the page shows, but for ids and times, which change every run.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BlockResult } from "./block-result.js";
import type { DocBlock } from "./doc-blocks.js";
import type { PageWorkspace } from "./page-workspace.js";

const PRELUDE = new URL("./prelude.sh", import.meta.url).pathname;

/** Whether the block is a transcript: commands after `$ `, their output below them. */
export function isTranscript(block: DocBlock): boolean {
  return block.code.trimStart().startsWith("$ ");
}

/** The output a transcript shows, to compare with what its commands print. */
export function shownOutput(block: DocBlock): string {
  return block.code
    .split("\n")
    .filter((line) => !line.startsWith("$ "))
    .join("\n")
    .trim();
}

/** A command sent to the background (`… &`), whose failure no exit code would show. */
const BACKGROUND = /(^|[^&])&\s*(#.*)?$/m;

/** Runs the block; a transcript's commands only. A block that backgrounds a command fails. */
export async function runShellBlock(block: DocBlock, page: PageWorkspace): Promise<BlockResult> {
  if (BACKGROUND.test(block.code)) {
    const stderr =
      "a command sent to the background (&) could fail unseen: mark the block <!-- not run: why -->";
    return { code: 64, stdout: "", stderr };
  }
  const code = isTranscript(block)
    ? block.code
        .split("\n")
        .map((line) => (line.startsWith("$ ") ? line.slice(2) : ""))
        .join("\n")
    : block.code;
  const script = join(page.dir, `.block-${block.line}.sh`);
  // Line 1 sources the prelude: line n + 1 of the script is line n of the block.
  writeFileSync(script, `source ${JSON.stringify(PRELUDE)}\n${page.withPort(code)}\n`);
  return new Promise((resolve) => {
    const child = spawn("bash", [script], {
      cwd: page.dir,
      env: page.env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
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
      resolve({ code: status ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** Output with what changes every run (ids, dates of recording) replaced by placeholders. */
export function stableOutput(text: string): string {
  return text
    .trim()
    .replace(/\bmem_[0-9a-z]+/g, "mem_…")
    .replace(/\b(s|op|edge)-[0-9a-z-]{8,}/g, "$1-…");
}
