/**
 * Docs that cannot drift: every file a doc or a code comment names exists, every link between
 * the docs reaches a file and a heading that exist, and no doc or comment cites a tracker the
 * reader cannot see (issue or stop numbers, the design notes outside the repository).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return walk(path, keep);
    return keep(name) ? [path] : [];
  });
}

const docs = [
  "README.md",
  ...walk("docs", (n) => n.endsWith(".md")),
  ...walk("lab", (n) => n.endsWith(".md")),
];
const code = [
  ...walk("src", (n) => n.endsWith(".ts")),
  ...walk("lab", (n) => n.endsWith(".ts")),
  ...walk("test", (n) => n.endsWith(".ts")),
];
const everyFile = walk(".", () => true);

/**
 * Names that stand for a user's own files in examples, never for files of this repository.
 * Each is a path a reader makes, not one they look for here.
 */
const ILLUSTRATIONS = new Set([
  "data/locomo10.json",
  "my-strategy.ts",
  "./memlane.db",
  "memlane.db",
  "conversations.json",
  "transcript.json",
  "bench-out.json",
  "memlane-demo.html",
  "memlane-recall.svg",
]);

/** A path of the repository as docs and comments write it: from the root or from src/. */
const PATH =
  /(?<![\w@/.:-])((?:[a-z0-9_-]+\/)+[a-z0-9_.-]+\.(?:ts|md|json|jsonl|wat|sh|svg|png|js|mjs|cjs))(?![\w/])/gi;

/**
 * Paths outside the repository by design: the shared data folder (`DIR` in the lab's commands,
 * and its data sets by name), a user's own files, and the build's output.
 */
const OUTSIDE =
  /^(DIR|path\/to|dist|locomo-dev|memory-ops|mtbenchplus|data\/mtbenchplus|probing_questions)\//;

function exists(path: string): boolean {
  const clean = path.replace(/^\.\//, "");
  if (ILLUSTRATIONS.has(clean) || OUTSIDE.test(clean)) return true;
  return everyFile.some((f) => f === clean || f.endsWith(`/${clean}`));
}

/** The comments of a source file (block and line comments), where prose names files. */
function comments(text: string): string {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)].map((m) => m[0]).join("\n");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

describe("docs that cannot drift", () => {
  it("finds the docs and the code", () => {
    assert.ok(docs.length > 10, `${docs.length} docs`);
    assert.ok(code.length > 300, `${code.length} source files`);
  });

  it("every file a doc names exists", () => {
    const missing = docs.flatMap((doc) =>
      [...readFileSync(join(ROOT, doc), "utf8").matchAll(PATH)]
        .map((m) => m[1]!)
        .filter((p) => !/^https?:/.test(p) && !exists(p))
        .map((p) => `${doc}: ${p}`),
    );
    assert.deepEqual(missing, []);
  });

  it("every file a code comment names exists", () => {
    const missing = code.flatMap((file) =>
      [...comments(readFileSync(join(ROOT, file), "utf8")).matchAll(PATH)]
        .map((m) => m[1]!)
        .filter((p) => !exists(p))
        .map((p) => `${file}: ${p}`),
    );
    assert.deepEqual(missing, []);
  });

  it("every link between the docs reaches a file and a heading", () => {
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(ROOT, doc), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path ? relative(ROOT, resolve(ROOT, dirname(doc), path)) : doc;
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${doc}: ${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith(".md") && !anchorsOf(target).has(anchor))
          broken.push(`${doc}: ${link} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("no doc or comment cites a tracker or notes the reader cannot see", () => {
    const cites = /\b(?:issues?|stops?)\s+#?\d+\b|ARCHITECTURE\.md\s*§|paper-notes/gi;
    const found = [
      ...docs.flatMap((doc) =>
        [...readFileSync(join(ROOT, doc), "utf8").matchAll(cites)].map((m) => `${doc}: ${m[0]}`),
      ),
      ...code.flatMap((file) =>
        file === "test/architecture/docs-paths.test.ts"
          ? []
          : [...readFileSync(join(ROOT, file), "utf8").matchAll(cites)].map((m) => `${file}: ${m[0]}`),
      ),
    ];
    assert.deepEqual(found, []);
  });
});
