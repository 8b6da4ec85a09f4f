/**
 * The code blocks of a Markdown page, as the doc-examples test runs them. A fenced block tagged
 * `ts`, `sh` or `python` (or an alias) is an example to run; any other tag, or none, is an
 * illustration (a file format, a config, a layout) and is left alone. An example that cannot
 * run here says so in an HTML comment on the line directly above its fence:
 * `<!-- not run: why -->`, so a skip is visible in the page's source and deliberate.
 */
import { readFileSync } from "node:fs";

/** The languages an example runs in. */
export type BlockLanguage = "ts" | "sh" | "python";

/** One fenced block of a runnable language. */
export interface DocBlock {
  /** The page, relative to the repository (as the failure message names it). */
  file: string;
  /** The 1-based line of the opening fence: the block's code starts on the next line. */
  line: number;
  language: BlockLanguage;
  code: string;
  /** Why the block is not run (the marker's text), or null when it runs. */
  skip: string | null;
}

const LANGUAGES: Record<string, BlockLanguage> = {
  ts: "ts",
  typescript: "ts",
  sh: "sh",
  bash: "sh",
  shell: "sh",
  python: "python",
  py: "python",
};

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const MARKER = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/;
/** A line that starts like a marker, to catch one that does not parse or sits above no block. */
const MARKER_LIKE = /^\s*<!--\s*not[ -]run/i;

/**
 * The runnable blocks of `text` (a page's Markdown), in page order.
 * @throws {Error} a skip marker without a reason, or not directly above a fenced block
 */
export function docBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const open = FENCE.exec(line);
    if (!open) {
      if (MARKER_LIKE.test(line) && !FENCE.test(lines[i + 1] ?? "")) {
        throw new Error(`${file}:${i + 1}: a "not run" marker must sit directly above a fenced block`);
      }
      continue;
    }
    const [, indent = "", fence = "```", tag = ""] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? "").trimStart().startsWith(fence)) end++;
    const language = LANGUAGES[tag.toLowerCase()];
    if (language) {
      const above = lines[i - 1] ?? "";
      const marker = MARKER.exec(above);
      if (MARKER_LIKE.test(above) && !marker?.[1]) {
        throw new Error(`${file}:${i}: write the marker as <!-- not run: the reason -->`);
      }
      const code = lines
        .slice(i + 1, end)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
        .join("\n");
      blocks.push({ file, line: i + 1, language, code, skip: marker?.[1] ?? null });
    }
    i = end;
  }
  return blocks;
}

/** The runnable blocks of the page at `path`, named `file` in messages. */
export function readDocBlocks(path: string, file: string): DocBlock[] {
  return docBlocks(file, readFileSync(path, "utf8"));
}
