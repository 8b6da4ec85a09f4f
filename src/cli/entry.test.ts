/**
 * The command line starts light: what bin.ts and main.ts import before a command runs (static,
 * non-type imports, followed through) stays in src/cli and src/core, with commander and
 * picocolors as the only packages. The engine, the strategies, zod, the server, the Postgres
 * driver and the MCP SDK load inside the commands' actions, so `--version` and `--help` never
 * wait for them and `recall` loads only what it uses.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const STATIC = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["']([^"']+)["']/gm;
const BARE = /^\s*import\s+["']([^"']+)["']/gm;

/** The files and packages `entry` loads at once, following static value imports. */
function loadedAtStart(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(resolve(ROOT, file), "utf8");
    const specs = [
      ...[...text.matchAll(STATIC)].filter((m) => !m[2]).map((m) => m[3]!),
      ...[...text.matchAll(BARE)].map((m) => m[1]!),
    ];
    for (const spec of specs) {
      if (spec.startsWith("node:")) continue;
      if (!spec.startsWith(".")) {
        packages.add(spec);
        continue;
      }
      const to = relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, ".ts");
      assert.ok(existsSync(resolve(ROOT, to)), `${file} imports ${spec}, which is not there`);
      walk(to);
    }
  };
  walk(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

describe("memlane starts light", () => {
  it("bin.ts answers --version with nothing but its own two helpers", () => {
    assert.deepEqual(loadedAtStart("src/cli/bin.ts").files, [
      "src/cli/bin.ts",
      "src/cli/entry.ts",
      "src/cli/version.ts",
    ]);
  });

  it("main.ts builds every command from src/cli and src/core, commander and picocolors", () => {
    const { files, packages } = loadedAtStart("src/cli/main.ts");
    // The names the help shows live with what they name, in modules that import nothing.
    assert.deepEqual(
      files.filter((f) => !f.startsWith("src/cli/") && !f.startsWith("src/core/")),
      ["src/adapters/mcp/tool-names.ts", "src/adapters/server/limits.ts", "src/strategies/names.ts"],
    );
    assert.deepEqual(packages, ["commander", "picocolors"]);
  });
});
