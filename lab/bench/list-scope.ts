/**
 * The list part of `npm run bench serve`: one agent's scope of N memories (100K by default,
 * `--list-memories`, 0 to skip) written into the server's SQLite file before it starts, then read
 * through `GET /v1/agents/{agent}/memories` a page at a time, following the cursors, plain and
 * filtered. Prints p50/p95/p99 of a page read per kind of read, and the machine's load.
 */
import { loadavg } from "node:os";
import { newId } from "../../src/core/ids.js";
import type { Memory } from "../../src/core/types.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";

export const LIST_AGENT = "listed";
const TOPICS = ["work", "home", "hobby", "health"];
const KINDS = ["fact", "fact", "summary", "insight"];
const DAY = 86_400_000;
const START = Date.parse("2023-01-01T00:00:00.000Z");

/** Writes `n` memories into the agent's scope: 2 years of them, a quarter each topic, one in a thousand rare. */
export async function seedListScope(db: string, tenant: string, n: number): Promise<void> {
  if (n <= 0) return;
  const started = performance.now();
  const store = new SqliteStore(db);
  try {
    const scope = { tenant, agent: LIST_AGENT };
    const recordedAt = new Date().toISOString();
    for (let from = 0; from < n; from += 5000) {
      const memories: Memory[] = [];
      for (let i = from; i < Math.min(n, from + 5000); i++)
        memories.push({
          id: newId("mem"),
          ...scope,
          about: i % 7 === 0 ? LIST_AGENT : `p${i % 50}`,
          text: `Statement ${i} about topic ${TOPICS[i % 4]}`,
          kind: KINDS[i % 4]!,
          strategy: "accumulate",
          observedAt: new Date(START + Math.floor((i / n) * 730 * DAY)).toISOString(),
          recordedAt,
          status: i % 10 === 9 ? "superseded" : "active",
          invalidAt: null,
          sessionId: null,
          sourceTurns: [],
          attributes: { meta: { topic: TOPICS[i % 4], ...(i % 1000 === 0 ? { flag: "rare" } : {}) } },
        });
      await store.write(scope, { memories });
    }
  } finally {
    await store.close();
  }
  console.log(
    `seeded ${n} memories for ${LIST_AGENT} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

type Call = (path: string) => Promise<{ status: number; json: Record<string, unknown> }>;

/** Reads pages of the scope through the server, `pages` of each kind, and prints their latencies. */
export async function benchListScope(call: Call, n: number, pages = 200): Promise<void> {
  if (n <= 0) return;
  const base = `/v1/agents/${LIST_AGENT}/memories?limit=100`;
  const reads: [name: string, query: string][] = [
    ["page", ""],
    ["page, newest first", "&status=any&order=newest"],
    ["filtered page (meta, kind)", "&meta.topic=work&kind=fact"],
    [
      "filtered page (meta in, dates)",
      "&meta.topic=home,hobby&observedAfter=2023-06-01&observedBefore=2024-06-01",
    ],
    ["filtered page (rare meta)", "&meta.flag=rare"],
  ];
  console.log(`\nlist reads of a ${n}-memory scope, 100 a page, following cursors (load ${loadText()})`);
  console.log("read                                pages   rows   p50 ms   p95 ms   p99 ms");
  // A page of each read in turn, so whatever else the server does meanwhile (the load test's
  // consolidations finishing) weighs on every kind of read alike.
  const state = reads.map(() => ({
    ms: [] as number[],
    rows: 0,
    cursor: null as string | null,
    done: false,
  }));
  for (let i = 0; i < pages; i++)
    for (const [r, [name, query]] of reads.entries()) {
      const s = state[r]!;
      if (s.done) continue;
      const start = performance.now();
      const { status, json } = await call(`${base}${query}${s.cursor ? `&cursor=${s.cursor}` : ""}`);
      s.ms.push(performance.now() - start);
      if (status !== 200) throw new Error(`${name}: ${status} ${JSON.stringify(json)}`);
      s.rows += (json.memories as unknown[]).length;
      s.cursor = json.nextCursor as string | null;
      s.done = !s.cursor;
    }
  for (const [r, [name]] of reads.entries()) {
    const { ms, rows } = state[r]!;
    ms.sort((a, b) => a - b);
    const pct = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(1).padStart(8);
    console.log(
      `${name.padEnd(34)} ${String(ms.length).padStart(6)} ${String(rows).padStart(6)} ${pct(0.5)} ${pct(0.95)} ${pct(0.99)}`,
    );
  }
  console.log(`load after: ${loadText()}`);
}

function loadText(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}
