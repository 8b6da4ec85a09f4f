/**
 * The house's rules (docs/architecture.md, "Rooms"), checked on the code's own imports: rooms import
 * only rooms below them, the product never reaches the lab, an adapter is reached only through
 * its one lazy door, no two files import each other in a circle, and the root entry loads no
 * adapter and none of the heavy packages the adapters use.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);

/** The product's rooms from the ground floor up; a room imports only rooms before it. */
const FLOORS = ["core", "models", "cognition", "store", "retrieval", "strategies", "engine", "adapters"];
/** Rooms that may use anything in the product (never the lab). */
const ROOF = new Set(["testing", "cli", "index.ts"]);
/** The one upward door: the Postgres adapter, imported on demand when a spec names Postgres. */
const LAZY_DOORS = new Map([["src/store/postgres-adapter.ts", "src/adapters/postgres/index.ts"]]);
/** Adapters an adapter may use: the server mounts the MCP tools at /mcp. */
const SIDEWAYS = new Map([["server", new Set(["mcp"])]]);
/** Packages the root entry must not load: the adapters' (and the optional peers'). */
const HEAVY = ["pg", "pg-boss", "@electric-sql/pglite", "hono", "@hono/", "@modelcontextprotocol/sdk", "ai"];

interface Import {
  from: string;
  to: string;
  dynamic: boolean;
  typeOnly: boolean;
}

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return files(path);
    return /\.ts$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const STATIC = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["']([^"']+)["']/gm;
const BARE_IMPORT = /^\s*import\s+["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: Import[] = [];
  const add = (spec: string, dynamic: boolean, typeOnly: boolean) => {
    const to = spec.startsWith(".")
      ? relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, ".ts")
      : spec;
    out.push({ from: file, to, dynamic, typeOnly });
  };
  for (const m of text.matchAll(STATIC)) add(m[3]!, false, Boolean(m[2]));
  for (const m of text.matchAll(BARE_IMPORT)) add(m[1]!, false, false);
  for (const m of text.matchAll(DYNAMIC)) add(m[1]!, true, false);
  return out;
}

/** Tests sit beside the code they test; they may use anything, so the rooms' rules skip them. */
const isTest = (path: string) => path.endsWith(".test.ts");
const product = files("src").filter((f) => !isTest(f));
const besideTests = files("src").filter(isTest);
const lab = files("lab");
const all = [...product, ...lab].flatMap(importsOf);

/** "core", "adapters", "cli", "index.ts"… for a path under src/. */
const roomOf = (path: string) => path.split("/")[1]!;
const adapterOf = (path: string) => (roomOf(path) === "adapters" ? path.split("/")[2]! : null);

describe("the house (docs/architecture.md, Rooms)", () => {
  it("finds the files and their imports", () => {
    assert.ok(product.length > 150, `${product.length} product files`);
    assert.ok(besideTests.length > 60, `${besideTests.length} tests beside the code`);
    assert.ok(all.length > 800, `${all.length} imports`);
  });

  it("a room imports only rooms below it; the roof uses anything in the product", () => {
    const wrong = all
      .filter((i) => i.from.startsWith("src/") && i.to.startsWith("src/"))
      .filter((i) => {
        const [a, b] = [roomOf(i.from), roomOf(i.to)];
        if (a === b || ROOF.has(a)) return false;
        if (LAZY_DOORS.get(i.from) === i.to && i.dynamic) return false;
        if (ROOF.has(b)) return true;
        return FLOORS.indexOf(b) > FLOORS.indexOf(a);
      })
      .map((i) => `${i.from} -> ${i.to}${i.typeOnly ? " (type)" : ""}`);
    assert.deepEqual(wrong, []);
  });

  it("an adapter uses another adapter only where the map says so", () => {
    const wrong = all
      .filter((i) => adapterOf(i.from) && adapterOf(i.to) && adapterOf(i.from) !== adapterOf(i.to))
      .filter((i) => !SIDEWAYS.get(adapterOf(i.from)!)?.has(adapterOf(i.to)!))
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(wrong, []);
  });

  it("the product never imports the lab", () => {
    const wrong = all.filter((i) => i.from.startsWith("src/") && i.to.startsWith("lab/")).map((i) => i.from);
    assert.deepEqual(wrong, []);
  });

  it("core imports nothing outside core, not even a package", () => {
    const wrong = all
      .filter(
        (i) => i.from.startsWith("src/core/") && !i.to.startsWith("src/core/") && !i.to.startsWith("node:"),
      )
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(wrong, []);
  });

  it("strategies get ports: no store implementation, no model adapter", () => {
    const wrong = all
      .filter((i) => i.from.startsWith("src/strategies/"))
      .filter(
        (i) =>
          /^src\/store\/(sqlite|sql)\//.test(i.to) ||
          /^src\/models\/(openai-compatible|llama-cpp|use-embedder)\.ts$/.test(i.to),
      )
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(wrong, []);
  });

  it("no two files import each other, directly or in a longer circle", () => {
    const edges = new Map<string, string[]>();
    for (const i of all)
      if (!i.dynamic && (i.to.startsWith("src/") || i.to.startsWith("lab/")))
        edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of edges.keys()) visit(file, []);
    assert.deepEqual(circles, []);
  });

  it("the root entry loads no adapter and none of the adapters' packages", () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of all.filter((x) => x.from === file && !x.dynamic && !x.typeOnly)) {
        if (i.to.startsWith("src/")) walk(i.to);
        else if (!i.to.startsWith("node:")) packages.add(i.to);
      }
    };
    walk("src/index.ts");
    assert.deepEqual(
      [...seen].filter((f) => f.startsWith("src/adapters/") || f.startsWith("lab/")),
      [],
    );
    const heavy = [...packages].filter((p) =>
      HEAVY.some((h) => p === h || p.startsWith(h.endsWith("/") ? h : `${h}/`)),
    );
    assert.deepEqual(heavy, []);
  });
});
