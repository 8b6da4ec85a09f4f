/**
 * Runs a TypeScript example in the test's process (tsx compiles it), against the package's own
 * source: `memlane` and `memlane/…` imports resolve to the entry points package.json exports,
 * read from src/ rather than dist/. A block that uses `mem` without opening it gets the page's
 * engine, `openMemlane({ store: "sqlite:./memlane.db" })` in the page's directory, so it sees what
 * earlier blocks stored; `mem`, whoever opened it, is closed after the block. The block runs in
 * the page's directory, which stays the process's until the page is done (page-workspace.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { atPageLines, type BlockResult } from "./block-result.js";
import type { DocBlock } from "./doc-blocks.js";
import type { PageWorkspace } from "./page-workspace.js";

const ROOT = new URL("../../", import.meta.url);

/** `memlane` and each `memlane/<name>` as a file URL under src/, from package.json's exports. */
export function sourceEntryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as {
    exports: Record<string, { default: string }>;
  };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const source = target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
    entries.set(subpath === "." ? "memlane" : `memlane/${subpath.slice(2)}`, new URL(source, ROOT).href);
  }
  return entries;
}

/**
 * The block's imports of `memlane…` pointed at the source, and of other packages at the
 * repository's node_modules (the block's file sits in a temporary directory, where none would
 * resolve). An unknown `memlane/…` subpath is left to fail, as it would for a reader.
 */
export function resolveImports(code: string, entries = sourceEntryPoints()): string {
  return code.replace(
    /(from\s*|import\s*\(\s*)(["'])([\w@][\w@/.-]*)\2/g,
    (whole, lead, quote, name: string) => {
      if (name.startsWith("node:")) return whole;
      if (name === "memlane" || name.startsWith("memlane/")) {
        const target = entries.get(name);
        return target ? `${lead}${quote}${target}${quote}` : whole;
      }
      try {
        return `${lead}${quote}${import.meta.resolve(name)}${quote}`;
      } catch {
        return whole;
      }
    },
  );
}

/** Whether the block uses `mem` without declaring it. */
function borrowsMem(code: string): boolean {
  return /\bmem\b/.test(code) && !/\b(const|let|var)\s+(mem\b|\{[^}]*\bmem\b)/.test(code);
}

/** Runs the block; a throw, or anything written with console.error, is a failure. */
export async function runTsBlock(block: DocBlock, page: PageWorkspace): Promise<BlockResult> {
  const entries = sourceEntryPoints();
  const head = borrowsMem(block.code)
    ? `import { openMemlane as __openMemlane } from "${entries.get("memlane")}"; const mem = await __openMemlane({ store: "sqlite:./memlane.db" });`
    : "";
  const tail = `\n;if (typeof mem !== "undefined") await mem.close().catch(() => undefined);\n`;
  const file = join(page.dir, `block-${block.line}.mts`);
  writeFileSync(file, atPageLines(block, resolveImports(block.code, entries), head) + tail);
  const errors: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => errors.push(args.map(String).join(" "));
  process.chdir(page.dir);
  try {
    await import(pathToFileURL(file).href);
    return { code: errors.length ? 1 : 0, stdout: "", stderr: errors.join("\n") };
  } catch (error) {
    // The block's file, in whatever form a message names it, is the page.
    const stack = String((error as Error).stack ?? error).replace(/[^\s(]*block-\d+\.m?ts/g, block.file);
    return { code: 1, stdout: "", stderr: [...errors, stack].join("\n") };
  } finally {
    console.error = consoleError;
  }
}
