/**
 * `npm run bench serve`: a bounded load test of `memlane serve` on loopback. The server runs as
 * its own process (the real command, over a fresh SQLite file); C clients, each its own agent,
 * loop for D seconds: start a session, add 2-6 turns, recall (memories, and turns every third
 * round), close. Prints p50/p95/p99 per route and errors; then stops the server with SIGTERM (it
 * finishes what is in flight) and checks that every acknowledged turn is in the store and every
 * closed session was consolidated. Before the server stops, it reads a 100K-memory scope a page
 * at a time, plain and filtered (list-scope.ts).
 *   --clients 50 --seconds 20 --embedder hash|use --strategy carecall --list-memories 100000
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { seededRandom } from "../../src/core/memory-graph.js";
import { openSqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { flag } from "./args.js";
import { benchListScope, seedListScope } from "./list-scope.js";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const TENANT = "bench";
const LINES = [
  "I adopted a beagle called Biscuit last month.",
  "I work as a nurse in Leeds, mostly night shifts.",
  "We moved to Bristol in April and the flat is tiny.",
  "My sister Jo is training for the Oslo marathon.",
  "I started pottery classes on Thursdays.",
  "I have been vegan for two years now.",
  "My daughter plays the violin in the school orchestra.",
  "I am reading a novel about a bakery in Lisbon.",
  "We go camping by the river every August.",
  "I switched jobs and now I teach chemistry.",
];
const QUESTIONS = [
  "What pet do I have?",
  "Where do I work?",
  "Where did we move?",
  "What is my sister doing?",
];

interface Sample {
  route: string;
  ms: number;
  status: number;
}

export async function benchServe(args: string[]): Promise<void> {
  const clients = Number(flag(args, "clients", "50"));
  const seconds = Number(flag(args, "seconds", "20"));
  const embedder = flag(args, "embedder", "hash");
  const strategy = flag(args, "strategy", "carecall");
  const listed = Number(flag(args, "list-memories", "100000"));
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-serve-"));
  const db = join(dir, "serve.db");
  const keys = await openSqliteKeyStore(db);
  const { key } = await createApiKey(keys, { tenant: TENANT, name: "bench" });
  await keys.close();
  await seedListScope(db, TENANT, listed);

  const server = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      CLI,
      "--db",
      db,
      "--embedder",
      embedder,
      "--strategy",
      strategy,
      "--json",
      "serve",
      "--port",
      "0",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const url = await listening(server);
    console.log(
      `memlane serve at ${url}; ${clients} clients for ${seconds} s (embedder ${embedder}, strategy ${strategy})`,
    );
    const samples: Sample[] = [];
    const acknowledged: { agent: string; id: string }[] = [];
    const closed: { agent: string; id: string }[] = [];
    const failures: string[] = [];
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const call = async (route: string, method: string, path: string, body?: unknown) => {
      const start = performance.now();
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      samples.push({ route, ms: performance.now() - start, status: res.status });
      if (res.status >= 400 && failures.length < 10)
        failures.push(`${route} ${res.status} ${JSON.stringify(json)}`);
      return { status: res.status, json };
    };

    const deadline = Date.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const agent = `agent-${c}`;
        const random = seededRandom(c + 1);
        for (let round = 0; Date.now() < deadline; round++) {
          const s = await call("POST /v1/sessions", "POST", "/v1/sessions", { agent, partner: "sam" });
          if (s.status !== 201) continue;
          const id = String(s.json.id);
          const turns = 2 + Math.floor(random() * 5);
          for (let t = 0; t < turns; t++) {
            const text = LINES[Math.floor(random() * LINES.length)]!;
            const r = await call("POST …/turns", "POST", `/v1/agents/${agent}/sessions/${id}/turns`, {
              speaker: t % 2 === 0 ? "sam" : agent,
              text,
            });
            if (r.status === 201) acknowledged.push({ agent, id: String(r.json.id) });
          }
          const query = QUESTIONS[round % QUESTIONS.length]!;
          await call("POST /v1/recall", "POST", "/v1/recall", { agent, query, about: "sam" });
          if (round % 3 === 2)
            await call("POST /v1/recall (turns)", "POST", "/v1/recall", {
              agent,
              query,
              about: "sam",
              units: "turns",
            });
          const done = await call("POST …/close", "POST", `/v1/agents/${agent}/sessions/${id}/close`);
          if (done.status === 202) closed.push({ agent, id });
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    report(samples, elapsed);
    for (const f of failures) console.log(`  error: ${f}`);
    await benchListScope((path) => call("GET …/memories (list)", "GET", path), listed);

    // SIGTERM: the server stops taking requests and finishes every consolidation in flight.
    const stopStart = performance.now();
    const exit = new Promise<number | null>((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    const code = await exit;
    console.log(
      `server stopped with code ${code} after ${((performance.now() - stopStart) / 1000).toFixed(1)} s`,
    );
    await verify(db, acknowledged, closed);
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The URL a `memlane serve --json` child prints once it listens. */
export function listening(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (d) => {
      out += d;
      try {
        resolve((JSON.parse(out) as { url: string }).url);
      } catch {
        // not the whole JSON yet
      }
    });
    server.once("exit", (code) => reject(new Error(`memlane serve exited with ${code}`)));
  });
}

function report(samples: Sample[], elapsed: number): void {
  const routes = [...new Set(samples.map((s) => s.route))];
  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  console.log(
    `${samples.length} requests in ${elapsed.toFixed(1)} s: ${(samples.length / elapsed).toFixed(0)} req/s`,
  );
  console.log("route                      count   p50 ms   p95 ms   p99 ms  errors");
  for (const route of routes) {
    const mine = samples.filter((s) => s.route === route);
    const ms = mine.map((s) => s.ms).sort((a, b) => a - b);
    const errors = mine.filter((s) => s.status >= 400).length;
    console.log(
      `${route.padEnd(25)} ${String(mine.length).padStart(6)} ${pct(ms, 0.5).toFixed(1).padStart(8)} ${pct(ms, 0.95).toFixed(1).padStart(8)} ${pct(ms, 0.99).toFixed(1).padStart(8)} ${String(errors).padStart(7)}`,
    );
  }
}

async function verify(
  db: string,
  acknowledged: { agent: string; id: string }[],
  closed: { agent: string; id: string }[],
): Promise<void> {
  const store = new SqliteStore(db);
  try {
    let missingTurns = 0;
    const byAgent = new Map<string, Set<string>>();
    for (const { agent } of acknowledged)
      if (!byAgent.has(agent))
        byAgent.set(agent, new Set((await store.listTurns({ tenant: TENANT, agent })).map((t) => t.id)));
    for (const { agent, id } of acknowledged) if (!byAgent.get(agent)!.has(id)) missingTurns++;
    let notConsolidated = 0;
    for (const { agent, id } of closed) {
      const session = await store.getSession({ tenant: TENANT, agent }, id);
      if (session?.status !== "consolidated") notConsolidated++;
    }
    console.log(
      `acknowledged turns: ${acknowledged.length}, missing from the store: ${missingTurns}; closed sessions: ${closed.length}, not consolidated: ${notConsolidated}`,
    );
    if (missingTurns > 0 || notConsolidated > 0) process.exitCode = 1;
  } finally {
    await store.close();
  }
}
