/**
 * Ingest throughput on Postgres with one and with two workers (`npm run bench postgres` runs it
 * after the recall figures). An API engine in this process stores the demo conversation's four
 * sessions for each of `--agents` agents (25 turns each) and queues their consolidation in the
 * Postgres queue; `memlane worker`-style engines in child processes, each its own process with its
 * own connections, consolidate with LLM cognition on the scripted model double. The double answers
 * at once, so each of its calls first waits `--latency` ms (default 250), standing in for a real
 * model's round trip: that wait is what a second worker can overlap, as it would with a hosted
 * model. Timed from the first turn to the last job finished; every run uses a fresh database on
 * one throwaway local server.
 *
 * Flags: --agents 8, --latency 250 (ms per model call), --workers 1,2, --url postgres://… (use
 * that server instead: each run creates and drops a database on it).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { openMemlane } from "../../src/engine/open-memlane.js";
import type { ChatMessage, ChatModel, GenerateOptions } from "../../src/models/chat-model.js";
import { startPostgresCluster } from "../../src/testing/postgres-cluster.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { flag } from "./args.js";

interface DemoSession {
  id: string;
  at: string;
  partners: string[];
  turns: { speaker: string; text: string }[];
}

const demo = JSON.parse(
  readFileSync(new URL("../../data/demo-conversation.json", import.meta.url), "utf8"),
) as {
  sessions: DemoSession[];
};
const quiet = { debug() {}, warn() {}, error() {} };

/** The scripted model, each call held back by `latencyMs` as a remote model's round trip would be. */
function slowScriptedModel(latencyMs: number): ChatModel {
  const inner = scriptedLlm();
  return {
    specificationVersion: "v1",
    name: `${inner.name}+${latencyMs}ms`,
    async generate(messages: ChatMessage[], options?: GenerateOptions) {
      await new Promise((r) => setTimeout(r, latencyMs));
      return inner.generate(messages, options);
    },
  };
}

/** One worker process: an engine that runs jobs from the queue until stdin closes. */
async function workerChild(url: string, latencyMs: number): Promise<void> {
  const mem = await openMemlane({
    store: url,
    embedder: "hash",
    chat: slowScriptedModel(latencyMs),
    cognition: "llm",
    logger: quiet,
    queue: { postgres: url, work: true, pollSeconds: 0.2 },
  });
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.on("end", resolve).resume());
  await mem.close();
}

/** Starts `n` worker processes on `url`; resolves when all are ready. */
async function startWorkers(n: number, url: string, latencyMs: number) {
  const file = fileURLToPath(import.meta.url);
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ["--import", "tsx", file, "--worker-child", url, String(latencyMs)], {
      stdio: ["pipe", "pipe", "inherit"],
    }),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          createInterface({ input: child.stdout! }).once("line", () => resolve());
          child.once("exit", (code) => reject(new Error(`a worker exited with ${code} before it was ready`)));
        }),
    ),
  );
  return {
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once("exit", () => resolve());
              child.stdin!.end();
            }),
        ),
      );
    },
  };
}

interface Run {
  workers: number;
  sessions: number;
  turns: number;
  calls: number;
  memories: number;
  stored: number;
  elapsed: number;
}

async function run(workers: number, url: string, agents: number, latencyMs: number): Promise<Run> {
  const fleet = await startWorkers(workers, url, latencyMs);
  const api = await openMemlane({
    store: url,
    embedder: "hash",
    logger: quiet,
    queue: { postgres: url, work: false, pollSeconds: 0.2 },
  });
  const started = performance.now();
  let turns = 0;
  // Agents talk at once; each plays the demo's sessions in order, closing each without waiting.
  await Promise.all(
    Array.from({ length: agents }, async (_, a) => {
      for (const d of demo.sessions) {
        const s = await api.session({ agent: `ava-${a}`, partners: d.partners, id: d.id, at: d.at });
        for (const t of d.turns) {
          await s.turn(t.speaker === "ava" ? `ava-${a}` : t.speaker, t.text);
          turns++;
        }
        await s.close();
      }
    }),
  );
  const stored = performance.now() - started;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const pending = async () =>
    Number(
      (
        await db.query(
          "SELECT count(*) FROM memlane_jobs.job WHERE name = 'memlane-consolidate' AND state < 'completed'",
        )
      ).rows[0].count,
    );
  while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 50));
  const elapsed = performance.now() - started;
  let calls = 0;
  let memories = 0;
  for (let a = 0; a < agents; a++) {
    const scope = { tenant: "default", agent: `ava-${a}` };
    for (const op of await api.store.listOperations(scope)) calls += op.usage.calls;
    memories += (await api.store.listMemories(scope, { status: "any" })).length;
  }
  await db.end();
  await api.close();
  await fleet.stop();
  return { workers, sessions: agents * demo.sessions.length, turns, calls, memories, stored, elapsed };
}

/**
 * Ingest turns/s through the Postgres queue with one and two worker processes (LLM cognition on
 * the scripted model with a simulated per-call latency).
 */
export async function benchPostgresIngest(args: string[]): Promise<void> {
  if (demo.sessions.some((s) => s.turns.some((t) => t.speaker !== "ava" && t.speaker !== "sam")))
    throw new Error("the demo conversation has speakers this bench does not map");
  const agents = Number(flag(args, "agents", "8"));
  const latencyMs = Number(flag(args, "latency", "250"));
  const counts = flag(args, "workers", "1,2").split(",").map(Number);
  const given = flag(args, "url", "");
  const cluster = given ? null : await startPostgresCluster();
  const runs: Run[] = [];
  try {
    for (const n of counts) {
      const url = given ? await scratchDatabase(given, n) : await cluster!.createDatabase();
      runs.push(await run(n, url, agents, latencyMs));
    }
  } finally {
    await cluster?.stop();
  }
  console.log(
    `\nIngest through the Postgres queue: ${agents} agents x ${demo.sessions.length} demo sessions, carecall, LLM cognition on the scripted model with ${latencyMs} ms per call (simulated), hash embedder; workers are separate processes, one job at a time each`,
  );
  console.log(
    "\n| workers | sessions | turns | model calls | memories | turns stored | all consolidated | turns/s | speed-up |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of runs) {
    const rate = r.turns / (r.elapsed / 1000);
    const base = runs[0]!.turns / (runs[0]!.elapsed / 1000);
    console.log(
      `| ${r.workers} | ${r.sessions} | ${r.turns} | ${r.calls} | ${r.memories} | ${(r.stored / 1000).toFixed(1)} s | ${(r.elapsed / 1000).toFixed(1)} s | ${rate.toFixed(1)} | ${(rate / base).toFixed(2)}x |`,
    );
  }
}

/** A fresh database on a server the user named. */
async function scratchDatabase(url: string, n: number): Promise<string> {
  const name = `memlane_ingest_bench_${process.pid}_${n}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

if (process.argv[2] === "--worker-child" && import.meta.url === pathToFileURL(process.argv[1]!).href)
  await workerChild(process.argv[3]!, Number(process.argv[4]));
