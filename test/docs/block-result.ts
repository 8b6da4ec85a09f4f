/** What running one example gave, and the message that names its page and line when it failed. */
import type { DocBlock } from "./doc-blocks.js";

export interface BlockResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A failure message: where the block is, how it ended and what it printed. */
export function describeFailure(block: DocBlock, result: BlockResult, why = `exited ${result.code}`): string {
  return [
    `${block.file}:${block.line} (${block.language} block) ${why}`,
    result.stdout.trim() && `--- stdout\n${result.stdout.trimEnd()}`,
    result.stderr.trim() && `--- stderr\n${result.stderr.trimEnd()}`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The block's source laid out at the page's own line numbers (blank lines above it, `head` on
 * the first), so a stack trace or traceback line is the page's line.
 */
export function atPageLines(block: DocBlock, code: string, head = ""): string {
  return `${head}${"\n".repeat(Math.max(1, block.line))}${code}\n`;
}
