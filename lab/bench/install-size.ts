/**
 * `npm run bench install-size [--pack DIR] [--with "pg pg-boss"]`: what `npm install memlane`
 * puts on disk for a SQLite-only user. Packs DIR (this checkout by default; another worktree for
 * a before-and-after), installs the tarball into an empty project with `--omit=dev` from the npm
 * registry (the one bench that needs the network), and prints the size of node_modules, the
 * number of packages, and the largest ones. `--with` adds packages to the install (an optional
 * peer, to see what a feature costs).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { flag } from "./args.js";

/** Bytes of a tree, symlinks not followed. */
function treeBytes(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((n, name) => n + treeBytes(join(path, name)), 0);
}

/** The packages of node_modules, scoped ones by their full name. */
function packagesIn(modules: string): string[] {
  return readdirSync(modules)
    .filter((n) => !n.startsWith("."))
    .flatMap((n) => (n.startsWith("@") ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export async function benchInstallSize(args: string[]): Promise<void> {
  const source = resolve(flag(args, "pack", process.cwd()));
  const extra = flag(args, "with", "").split(/\s+/).filter(Boolean);
  const work = mkdtempSync(join(tmpdir(), "memlane-install-size-"));
  const env = { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true" };
  try {
    console.log(`packing ${source}`);
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", work], {
        cwd: source,
        env,
        encoding: "utf8",
      }),
    ) as { filename: string; size: number; unpackedSize: number; entryCount: number }[];
    const project = join(work, "project");
    execFileSync("mkdir", ["-p", project]);
    execFileSync("npm", ["init", "-y"], { cwd: project, env, stdio: "ignore" });
    console.log(
      `installing ${packed!.filename}${extra.length ? ` with ${extra.join(" ")}` : ""} (--omit=dev)`,
    );
    execFileSync(
      "npm",
      ["install", "--omit=dev", "--no-audit", "--no-fund", join(work, packed!.filename), ...extra],
      { cwd: project, env, stdio: "ignore" },
    );
    const modules = join(project, "node_modules");
    const packages = packagesIn(modules);
    const sizes = packages
      .map((p) => ({ p, bytes: treeBytes(join(modules, p)) }))
      .sort((a, b) => b.bytes - a.bytes);
    console.log(
      `tarball: ${mb(packed!.size)} (${packed!.entryCount} files, ${mb(packed!.unpackedSize)} unpacked)`,
    );
    console.log(`node_modules: ${mb(treeBytes(modules))} in ${packages.length} top-level packages`);
    console.log("largest:");
    for (const { p, bytes } of sizes.slice(0, 12)) console.log(`  ${mb(bytes).padStart(9)}  ${p}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
