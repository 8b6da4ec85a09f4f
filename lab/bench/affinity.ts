/**
 * `npm run bench affinity`: what scope affinity saves a fleet of replicas. Many small scopes (one
 * tenant each) in one SQLite file, and `--replicas` engines over it in this process, each with its
 * own connection, as `memlane serve` replicas would be. Every scope is asked `--asks` times, shuffled,
 * and routed round robin (each request to the next replica) and then by scope (to its home,
 * core/replica-share.ts, as nginx's `hash` on Memlane-Scope would). Then a failover: one replica
 * takes every scope while its peers are down, under a budget that holds its own share, and its
 * own scopes are asked again: with a share they stay warm, without one they load again.
 * Index bytes are the budget's counted bytes (heap and external memory of each index).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { homeOf, isHome, type ReplicaShare, scopeRoute } from "../../src/core/replica-share.js";
import type { Memlane } from "../../src/engine/memlane.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { openSqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { flag } from "./args.js";
import { fillLiving } from "./live.js";
import { percentile } from "./recall.js";
import { listening } from "./serve.js";

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

export async function benchAffinity(args: string[]): Promise<void> {
  const scopes = Number(flag(args, "scopes", "1000"));
  const turns = Number(flag(args, "turns", "100"));
  const replicas = Number(flag(args, "replicas", "2"));
  const asked = Number(flag(args, "asks", "4"));
  const parts = flag(args, "parts", "engines,processes").split(",");
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-affinity-"));
  const file = join(dir, "affinity.db");
  const embedder = new HashEmbedder();
  const tenants = Array.from({ length: scopes }, (_, i) => `t${i}`);
  {
    const store = new SqliteStore(file);
    for (const [i, tenant] of tenants.entries())
      await fillLiving(store, { tenant, agent: "ava" }, turns, embedder, "carecall", i);
    await store.close();
    // The filled sessions are closed but were never consolidated: a starting server would take
    // them for a killed server's and consolidate all of them, in every replica at once.
    const db = new Database(file);
    db.prepare("UPDATE sessions SET status = 'consolidated' WHERE status = 'closed'").run();
    db.close();
  }
  // Each scope `--asks` times, in an order no replica could guess (a seeded shuffle, the same every run).
  const asks = Array.from({ length: asked }, () => tenants.map((t) => ({ t }))).flat();
  let seed = 7;
  const random = () => {
    // mulberry32: 32-bit integer steps, exact in JavaScript numbers.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  for (let i = asks.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [asks[i], asks[j]] = [asks[j]!, asks[i]!];
  }
  const open = (replica?: ReplicaShare, indexBudget?: number) =>
    openMemlane({
      store: file,
      strategy: "carecall",
      embedder,
      ...(replica ? { replica } : {}),
      ...(indexBudget === undefined ? {} : { indexBudget }),
    });
  const ask = async (mem: Memlane, tenant: string) => {
    const t0 = performance.now();
    await mem
      .tenant(tenant)
      .recall({ agent: "ava", about: "sam", query: "what did Sam say about the garden?" });
    return performance.now() - t0;
  };
  const home = (tenant: string) => homeOf(scopeRoute({ tenant, agent: "ava" }), replicas);

  if (parts.includes("processes")) await servedFleet(file, tenants, asks, replicas);
  if (!parts.includes("engines")) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  console.log(
    `\n## ${scopes.toLocaleString("en")} scopes of ${turns} turns and memories, ${replicas} replicas over one SQLite file (hash embedder, each scope asked ${asked} times, shuffled)\n\n| routing | index bytes held per replica | indexes per replica | all replicas | recall p50 / p95 |\n| --- | --- | --- | ---: | ---: |`,
  );
  for (const routing of ["round robin", "by scope"] as const) {
    const fleet = await Promise.all(
      Array.from({ length: replicas }, (_, i) => open({ index: i + 1, of: replicas })),
    );
    const times: number[] = [];
    for (const [n, { t }] of asks.entries()) {
      const to = routing === "by scope" ? home(t) - 1 : n % replicas;
      times.push(await ask(fleet[to]!, t));
    }
    const held = fleet.map((m) => m.indexes()!);
    console.log(
      `| ${routing} | ${held.map((h) => mib(h.used)).join(", ")} | ${held.map((h) => h.count).join(", ")} | ${mib(held.reduce((s, h) => s + h.used, 0))} | ${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.95))} |`,
    );
    await Promise.all(fleet.map((m) => m.close()));
  }

  // Failover: replica 1 answers everything, with room for about its own share of the indexes.
  const share: ReplicaShare = { index: 1, of: replicas };
  const own = tenants.filter((tenant) => isHome(share, { tenant, agent: "ava" }));
  const probe = await open();
  for (const tenant of own) await ask(probe, tenant);
  const budget = Math.ceil(probe.indexes()!.used * 1.1);
  await probe.close();
  console.log(
    `\nFailover: replica 1 of ${replicas} takes all ${scopes.toLocaleString("en")} scopes under a budget of ${mib(budget)} (its own ${own.length} scopes' indexes and a tenth more), then its own scopes are asked again:\n\n| replica | indexes held after the failover | its own scopes' recall p50 / p95 after it |\n| --- | ---: | ---: |`,
  );
  for (const given of [share, undefined]) {
    const mem = await open(given, budget);
    for (const tenant of own) await ask(mem, tenant);
    for (const { t } of asks) await ask(mem, t);
    const times: number[] = [];
    for (const tenant of own) times.push(await ask(mem, tenant));
    // Warm answers take a few milliseconds; one that loaded its scope again takes longer.
    console.log(
      `| ${given ? `with --replica 1/${replicas}` : "without a share"} | ${mem.indexes()!.count} indexes | ${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.95))} |`,
    );
    await mem.close();
  }
  rmSync(dir, { recursive: true, force: true });
}

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;

/** A process's resident memory, from /proc (Linux). */
function rss(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Number(line[1]) * 1024 : Number.NaN;
}

/**
 * The same asks through real `memlane serve --replica i/n` processes, one API key per tenant:
 * routed round robin, then by Memlane-Scope as a load balancer would. Each replica's resident
 * memory is read after it starts and after the asks.
 */
async function servedFleet(
  file: string,
  tenants: string[],
  asks: { t: string }[],
  replicas: number,
): Promise<void> {
  const keys = await openSqliteKeyStore(file);
  const keyOf = new Map<string, string>();
  for (const tenant of tenants) keyOf.set(tenant, (await createApiKey(keys, { tenant })).key);
  await keys.close();
  console.log(
    `\n## ${tenants.length.toLocaleString("en")} tenants through ${replicas} memlane serve processes (--replica i/${replicas}, SQLite, hash embedder, each scope asked ${asks.length / tenants.length} times, shuffled)\n\n| routing | RSS per replica after start | RSS per replica after the asks | answered away from home | recall p50 / p95 |\n| --- | --- | --- | ---: | ---: |`,
  );
  for (const routing of ["round robin", "by scope"] as const) {
    const fleet = Array.from({ length: replicas }, (_, i) =>
      spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          CLI,
          "--db",
          file,
          "--embedder",
          "hash",
          "--strategy",
          "carecall",
          "--json",
          "serve",
        ].concat(["--port", "0", "--replica", `${i + 1}/${replicas}`]),
        { stdio: ["ignore", "pipe", process.env.AFFINITY_LOG ? "inherit" : "ignore"] },
      ),
    );
    try {
      const urls = await Promise.all(fleet.map(listening));
      const started = fleet.map((p) => rss(p.pid!));
      const times: number[] = [];
      let away = 0;
      for (const [n, { t }] of asks.entries()) {
        const route = scopeRoute({ tenant: t, agent: "ava" });
        const to = routing === "by scope" ? homeOf(route, replicas) - 1 : n % replicas;
        const t0 = performance.now();
        const res = await fetch(`${urls[to]}/v1/recall`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${keyOf.get(t)}`,
            "content-type": "application/json",
            "memlane-scope": route,
          },
          body: JSON.stringify({ agent: "ava", about: "sam", query: "what did Sam say about the garden?" }),
        });
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`recall answered ${res.status}`);
        if (res.headers.get("memlane-home") !== res.headers.get("memlane-replica")) away++;
      }
      const after = fleet.map((p) => rss(p.pid!));
      console.log(
        `| ${routing} | ${started.map(mib).join(", ")} | ${after.map(mib).join(", ")} | ${away} of ${asks.length} | ${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.95))} |`,
      );
    } finally {
      await Promise.all(fleet.map(stop));
    }
  }
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    server.once("exit", () => done());
    server.kill("SIGTERM");
  });
}
