/**
 * A throwaway Postgres cluster for tests and benchmarks: `initdb` into a temporary directory,
 * `pg_ctl start` on a free loopback port, a database per call of `createDatabase`, and `stop()`
 * removes everything. Postgres refuses to run as root, so when this process is root the server
 * binaries run as the unprivileged `postgres` user (Debian's package creates it).
 *
 * Where no server binaries exist, `findPostgresBinaries()` returns null: suites skip, saying
 * why, unless MEMLANE_REQUIRE_POSTGRES=1 (CI sets it) asks them to fail instead.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where initdb, pg_ctl and postgres live, or null when this machine has no Postgres server. */
export function findPostgresBinaries(): string | null {
  const fromEnv = process.env.MEMLANE_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, "initdb"))) return fromEnv;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const found = which.status === 0 ? which.stdout.trim() : "";
  return found ? join(found, "..") : null;
}

/**
 * Why Postgres tests cannot run here, or null when they can. Suites pass this to node:test's
 * `skip`; with MEMLANE_REQUIRE_POSTGRES=1 a missing server throws instead, so CI cannot go green
 * by skipping.
 */
export function postgresSkipReason(): string | null {
  if (findPostgresBinaries()) return null;
  const reason =
    "no Postgres server binaries (initdb) on this machine: install Debian's postgresql or set MEMLANE_PG_BIN";
  if (process.env.MEMLANE_REQUIRE_POSTGRES === "1") {
    throw new Error(`MEMLANE_REQUIRE_POSTGRES=1 but ${reason}`);
  }
  return reason;
}

/** A free TCP port on loopback, chosen by the kernel. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  /** `postgres://` URL of the cluster's default database (`postgres`). */
  readonly url: string;
  readonly port: number;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Restarts the server (fast shutdown: every connection is ended), on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

let databaseCounter = 0;

/**
 * Starts a cluster in a new temporary directory. Trust authentication on loopback only: it is a
 * test server that lives as long as the test. `maxConnections` is the server's `max_connections`
 * (default 200, room for many suites; 100 is Postgres's own default, for tests of the budget).
 */
export async function startPostgresCluster(
  options: { binaries?: string; maxConnections?: number } = {},
): Promise<PostgresCluster> {
  const bin = options.binaries ?? findPostgresBinaries();
  if (!bin) throw new Error(postgresSkipReason() ?? "no Postgres server binaries");
  const dir = mkdtempSync(join(tmpdir(), "memlane-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    uid = id("-u");
    gid = id("-g");
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  // Runs a server binary as the unprivileged user when we are root.
  const run = (tool: string, args: string[]) => {
    const result = spawnSync(join(bin, tool), args, {
      encoding: "utf8",
      uid,
      gid,
      cwd: dir,
      env: { ...process.env, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" },
    });
    if (result.status !== 0) {
      throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-k ${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    `-c max_connections=${options.maxConnections ?? 200}`,
  ].join(" ");
  run("pg_ctl", ["-D", data, "-o", settings, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    async createDatabase(name?: string) {
      const db = name ?? `memlane_${process.pid}_${++databaseCounter}`;
      if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`Not a plain database name: ${db}`);
      run("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-qc", `CREATE DATABASE ${db}`]);
      return `postgres://postgres@127.0.0.1:${port}/${db}`;
    },
    async restart() {
      run("pg_ctl", [
        "-D",
        data,
        "-o",
        settings,
        "-l",
        join(dir, "server.log"),
        "-m",
        "fast",
        "-w",
        "-t",
        "60",
        "restart",
      ]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
