/**
 * Where one page's examples run, in page order: a temporary working directory (so
 * `sqlite:./memlane.db` and `--db memlane.db` are the page's own file), the port the page's
 * `memlane serve` listens on, the relay its shell blocks' `memlane` goes through, and the
 * environment the page's shell blocks have exported so far.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliRelay, startCliRelay } from "./cli-relay.js";

/** The port the docs write for `memlane serve`; each page's examples use a free one instead. */
export const DOCS_PORT = 8787;

export interface PageWorkspace {
  /** The working directory of every block of the page. */
  dir: string;
  /** Where shell blocks leave their variables and environment for the next block. */
  stateDir: string;
  /** The free port that stands for the docs' 8787. */
  port: number;
  relay: CliRelay;
  /** The environment for the next block: the one the last shell block ended with. */
  env(): NodeJS.ProcessEnv;
  /** `code` with the docs' port replaced by this page's. */
  withPort(code: string): string;
  close(): Promise<void>;
}

/**
 * Opens a fresh workspace for one page and makes it the process's working directory until
 * `close`: the page's servers and engines, which run in this process, may resolve a relative
 * path (`./memlane.db`) long after the block that started them.
 */
export async function openPageWorkspace(): Promise<PageWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), "memlane-docs-"));
  const stateDir = join(dir, ".docs-state");
  mkdirSync(stateDir);
  const home = process.cwd();
  process.chdir(dir);
  const relay = await startCliRelay(dir);
  const port = await freePort();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: "1",
    MEMLANE_DOCS_RELAY: relay.url,
    MEMLANE_DOCS_SHIM: new URL("./memlane-shim.mjs", import.meta.url).pathname,
    MEMLANE_DOCS_STATE: stateDir,
    MEMLANE_DOCS_ROOT: new URL("../../", import.meta.url).pathname,
  };
  // The test's own settings must not leak into what a reader's fresh shell would run.
  for (const name of Object.keys(base)) if (/^MEMLANE_(?!DOCS_)/.test(name)) delete base[name];
  return {
    dir,
    stateDir,
    port,
    relay,
    env() {
      const saved = join(stateDir, "env");
      if (!existsSync(saved)) return { ...base };
      const env: NodeJS.ProcessEnv = {};
      for (const entry of readFileSync(saved, "utf8").split("\0")) {
        const at = entry.indexOf("=");
        if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
      }
      return env;
    },
    withPort: (code) => code.replaceAll(String(DOCS_PORT), String(port)),
    async close() {
      await relay.stop();
      process.chdir(home);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A loopback port free at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
