/**
 * The package as a user installs it: `npm pack`, unpacked into a fresh project's node_modules
 * with only the dependencies a SQLite user gets (linked from this repository's node_modules; no
 * network), then the README's quick starts run there. A strict TypeScript project type-checks
 * against the public types with `skipLibCheck: false`, so no published type needs a
 * devDependency; a missing optional package is named with the command that installs it; and
 * `require("memlane")` says how to import instead.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

let tmp: string;
let consumer: string;
let packed: string[];

/** The first fenced block of a language after a heading of the README. */
function readmeBlock(heading: string, language: string): string {
  const from = README.indexOf(heading);
  assert.ok(from >= 0, `the README has "${heading}"`);
  const open = README.indexOf(`\`\`\`${language}\n`, from);
  const close = README.indexOf("\n```", open + 4);
  return README.slice(open + language.length + 4, close + 1);
}

/** A command line split into arguments, quotes kept together, a trailing comment dropped. */
function argv(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/\s+#\s.*$/, "").matchAll(/"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

function run(command: string, args: string[], cwd = consumer) {
  return spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "", NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true" },
    timeout: 120_000,
  });
}

const memlaneBin = () => join(consumer, "node_modules", "memlane", "dist", "cli", "bin.js");

describe("the package as a user installs it", () => {
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), "memlane-pack-"));
    const [info] = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true" },
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as { filename: string; files: { path: string }[] }[];
    packed = info!.files.map((f) => f.path);
    consumer = join(tmp, "consumer");
    const unpacked = join(consumer, "node_modules", "memlane");
    mkdirSync(unpacked, { recursive: true });
    execFileSync("tar", ["-xzf", join(tmp, info!.filename), "-C", unpacked, "--strip-components=1"]);
    // What `npm install memlane` brings a SQLite user: the dependencies, none of the optional
    // peers. Linked, not installed, so the test needs no network.
    for (const name of [...Object.keys(manifest.dependencies), "@types/node"]) {
      const link = join(consumer, "node_modules", name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", name), link, "dir");
    }
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", type: "module" }));
  });
  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("carries the licence, the changelog, the docs and the build, and no tests, sources or lab", () => {
    for (const file of [
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      "package.json",
      "dist/index.js",
      "dist/require.cjs",
    ])
      assert.ok(packed.includes(file), `${file} is in the package`);
    assert.ok(packed.some((f) => f.startsWith("docs/") && f.endsWith(".md")));
    assert.ok(packed.includes("data/demo-conversation.json"));
    const stray = packed.filter((f) => /\.test\./.test(f) || /^(src|lab|test)\//.test(f));
    assert.deepEqual(stray, []);
  });

  it("every link of the README and the docs reaches a file in the package", () => {
    const installed = join(consumer, "node_modules", "memlane");
    const docs = packed.filter((f) => f === "README.md" || /^docs\/.+\.md$/.test(f));
    const missing = docs.flatMap((doc) =>
      [...readFileSync(join(installed, doc), "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((l) => !/^(https?:|mailto:)/.test(l))
        .filter((l) => !existsSync(join(installed, dirname(doc), l)))
        .map((l) => `${doc}: ${l}`),
    );
    assert.ok(docs.length > 10);
    assert.deepEqual(missing, []);
  });

  it("type-checks the README's library quick start in a strict project, skipLibCheck off", () => {
    writeFileSync(join(consumer, "quick-start.ts"), readmeBlock("## Quick start: the library", "ts"));
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: false,
          types: ["node"],
          outDir: "out",
        },
        files: ["quick-start.ts"],
      }),
    );
    const tsc = run(process.execPath, [
      join(ROOT, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      consumer,
    ]);
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  it("runs the README's library quick start", () => {
    const quickStart = run(process.execPath, [join(consumer, "out", "quick-start.js")]);
    assert.equal(quickStart.status, 0, quickStart.stdout + quickStart.stderr);
    assert.ok(existsSync(join(consumer, "memlane.db")));
  });

  it("runs the README's command-line quick start from the installed package", () => {
    const lines = readmeBlock("## Quick start: the command line", "sh")
      .split("\n")
      .filter((l) => l.startsWith("npx memlane "))
      // `history` needs an id from an earlier output, and `chat` is interactive.
      .filter((l) => !/^npx memlane (history|chat) /.test(l));
    assert.ok(lines.length >= 4, lines.join("\n"));
    for (const line of lines) {
      const args = argv(line).slice(2);
      const cli = run(process.execPath, [
        memlaneBin(),
        ...args,
        ...(args[0] === "demo" ? [] : ["--embedder", "hash"]),
      ]);
      assert.equal(cli.status, 0, `${line}\n${cli.stdout}${cli.stderr}`);
    }
  });

  it("names the missing package and its install command when a feature needs an optional one", () => {
    const pglite = run(process.execPath, [
      "--input-type=module",
      "-e",
      'import { openMemlane } from "memlane"; try { await openMemlane({ store: "pglite:memory", embedder: "hash" }); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }',
    ]);
    const failed = JSON.parse(pglite.stdout) as { code: string; message: string };
    assert.equal(failed.code, "UNSUPPORTED");
    // A PGlite store names every package it needs at once, the Postgres adapter's with PGlite's.
    assert.match(
      failed.message,
      /npm install pg pg-boss @electric-sql\/pglite @electric-sql\/pglite-pgvector/,
    );
    const serve = run(process.execPath, [memlaneBin(), "serve", "--db", "served.db", "--port", "0"]);
    assert.notEqual(serve.status, 0);
    assert.match(serve.stderr, /npm install hono @hono\/node-server @hono\/zod-openapi/);
  });

  it("require('memlane') from CommonJS says how to import it (or, where Node can, loads it)", () => {
    const required = run(process.execPath, [
      "-e",
      'const m = require("memlane"); console.log(typeof m.openMemlane)',
    ]);
    const features = process.features as { require_module?: boolean };
    if (features.require_module) assert.equal(required.stdout.trim(), "function");
    else {
      assert.notEqual(required.status, 0);
      assert.match(required.stderr, /import \{ openMemlane \} from "memlane"/);
      assert.match(required.stderr, /await import\("memlane"\)/);
    }
  });
});
