/**
 * Indexes kept live from the change log answer exactly what a freshly built
 * index answers. Random sequences of writes (new sessions, turns, memories, supersessions, edges),
 * forgets and writes by a second store on the same file (another process's writes) run against
 * one long-lived retriever; after every step, every search is compared with a new retriever's.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openPostgresStore } from "../adapters/postgres/open-store.js";
import { seededRandom } from "../core/memory-graph.js";
import type { Memory, Turn } from "../core/types.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../testing/postgres-cluster.js";
import { memory, scopeA, session, turn } from "../testing/rows.js";
import { MEMORY_WEIGHTS } from "./fusion.js";
import { GraphCache, type LoadedGraph } from "./graph-cache.js";
import { InProcessRetriever } from "./in-process-retriever.js";
import { turnEmbeddingText } from "./turn-embedding-text.js";

const embedder = new HashEmbedder(64);
const WORDS = "beagle garden pottery marathon bristol nurse guitar camping teacher vegan coffee museum".split(
  " ",
);
const PEOPLE = ["sam", "kim", "lee"];
const STRATEGIES = ["theanine", "emma"];
const QUERIES = [
  "what did Sam say about the beagle?",
  "pottery garden coffee",
  "when did Kim go camping last week?",
  "where does Lee work now?",
  "marathon in March 2024",
];

type Hits = { id: string; score: number }[];
const canonical = (hits: Hits) =>
  hits
    .map((h) => ({ id: h.id, score: Math.round(h.score * 1e9) / 1e9 }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

async function everySearch(retriever: InProcessRetriever): Promise<Record<string, Hits>> {
  const out: Record<string, Hits> = {};
  for (const query of QUERIES) {
    out[`m:${query}`] = canonical(await retriever.searchMemories(scopeA, { query, k: 50 }));
    out[`m-any:${query}`] = canonical(
      await retriever.searchMemories(scopeA, { query, k: 50, filter: { status: "any" } }),
    );
    out[`m-graph:${query}`] = canonical(
      await retriever.searchMemories(scopeA, {
        query,
        k: 50,
        weights: { ...MEMORY_WEIGHTS, neighbour: 0.55 },
      }),
    );
    out[`m-kim:${query}`] = canonical(
      await retriever.searchMemories(scopeA, { query, k: 50, filter: { about: "kim" } }),
    );
    out[`t:${query}`] = canonical(await retriever.searchTurns(scopeA, { query, k: 50 }));
    out[`t-bm25:${query}`] = canonical(await retriever.searchTurns(scopeA, { query, k: 50, ranker: "bm25" }));
    out[`t-sam:${query}`] = canonical(await retriever.searchTurns(scopeA, { query, k: 50, speaker: "sam" }));
  }
  return out;
}

/** A graph as plain data: nodes in order, each with its edges out and in. */
function graphView({ graph, memories }: LoadedGraph) {
  return [...graph.nodes.values()].map((n) => ({
    ...n,
    status: memories.get(n.id)?.status,
    out: graph.successors(n.id),
    in: graph.predecessors(n.id),
  }));
}

/** Three connections to one database: the writer, another process's, and a cold reader. */
interface Database {
  open(): MemoryStore;
  drop(): void;
}

function sqliteDatabase(): Database {
  const dir = mkdtempSync(join(tmpdir(), "memlane-live-index-"));
  return {
    open: () => new SqliteStore(join(dir, "live.db")),
    drop: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function run(seed: number, steps: number, db: Database): Promise<{ rebuilds: string[] }> {
  const store = db.open();
  const other = db.open(); // another process's connection to the same database
  const rebuilds: string[] = [];
  const live = new InProcessRetriever(store, embedder, {
    onRebuild: (_s, kind, why) => rebuilds.push(`${kind}: ${why}`),
  });
  // The graph cache an engine over this store would hold, kept live across the steps.
  const graphs = new GraphCache(store);
  const random = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const sentence = () => Array.from({ length: 4 + Math.floor(random() * 6) }, () => pick(WORDS)).join(" ");
  const sessions: { id: string; next: number }[] = [];
  let day = 1;
  let made = 0;
  const at = () => new Date(Date.UTC(2024, 2, day)).toISOString();
  const vectorsOf = async (turns: Turn[], memories: Memory[]) => {
    const [tv, mv] = await Promise.all([
      embedder.embed(turns.map(turnEmbeddingText)),
      embedder.embed(memories.map((m) => m.text)),
    ]);
    return [
      ...turns.map((t, i) => ({
        ownerKind: "turn" as const,
        ownerId: t.id,
        model: embedder.name,
        vector: tv[i]!,
      })),
      ...memories.map((m, i) => ({
        ownerKind: "memory" as const,
        ownerId: m.id,
        model: embedder.name,
        vector: mv[i]!,
      })),
    ];
  };
  try {
    for (let step = 0; step < steps; step++) {
      const writer: MemoryStore = random() < 0.3 ? other : store;
      const roll = random();
      const active = (await store.listMemories(scopeA)).filter((m) => m.about !== "nobody");
      if (roll < 0.15 || sessions.length === 0) {
        day += Math.floor(random() * 3);
        const s = session(scopeA, `s${made++}`, at(), [pick(PEOPLE)]);
        sessions.push({ id: s.id, next: 0 });
        await writer.write(scopeA, { sessions: [s] });
      } else if (roll < 0.5) {
        // Turns, to any open session: sessions interleave.
        const s = pick(sessions);
        const turns = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
          turn(scopeA, s.id, s.next++, pick([...PEOPLE, "ava"]), sentence(), at()),
        );
        const withVectors = random() < 0.8; // some turns arrive without a vector (embedded on the fly)
        await writer.write(scopeA, { turns, embeddings: withVectors ? await vectorsOf(turns, []) : [] });
      } else if (roll < 0.72) {
        const turns = await store.listTurns(scopeA);
        const m = memory(scopeA, `${pick(["Sam", "Kim", "Lee"])} ${sentence()}`, {
          about: pick(PEOPLE),
          // Some memories are dated before the newest ones (a late consolidation), so a held
          // graph must place them inside its order, not at its end.
          observedAt:
            random() < 0.3 ? new Date(Date.UTC(2024, 2, 1 + Math.floor(random() * day))).toISOString() : at(),
          strategy: pick(STRATEGIES),
          sourceTurns: turns.length ? [pick(turns).id] : [],
        });
        await writer.write(scopeA, { memories: [m], embeddings: await vectorsOf([], [m]) });
      } else if (roll < 0.84 && active.length) {
        const old = pick(active);
        const m = memory(scopeA, `${old.text} ${pick(WORDS)}`, {
          about: old.about,
          observedAt: at(),
          strategy: old.strategy,
        });
        await writer.write(scopeA, {
          memories: [m],
          embeddings: await vectorsOf([], [m]),
          supersede: [{ oldId: old.id, byId: m.id, at: m.observedAt, reason: "REPLACE" }],
        });
      } else if (roll < 0.9 && active.length > 1) {
        const [a, b] = [pick(active), pick(active)];
        if (a.id !== b.id)
          await writer.write(scopeA, {
            edges: [
              {
                id: `e${step}`,
                ...scopeA,
                from: a!.id,
                to: b!.id,
                type: "Cause",
                attributes: {},
                recordedAt: "",
              },
            ],
          });
      } else if (roll < 0.95 && active.length) {
        await writer.forget(scopeA, { memoryIds: [pick(active).id] });
      } else if (sessions.length > 1) {
        const gone = sessions.splice(Math.floor(random() * sessions.length), 1)[0]!;
        await writer.forget(scopeA, { sessionId: gone.id });
      }
      if (step % 3 !== 2) continue; // several writes may land between two searches
      const fresh = new InProcessRetriever(store, embedder);
      assert.deepEqual(await everySearch(live), await everySearch(fresh), `seed ${seed}, step ${step}`);
      const coldStore = db.open();
      const cold = new GraphCache(coldStore);
      // Graphs are held per strategy: a write of one strategy's memories, or of turns alone,
      // leaves another's graph as it was, and that must still be what a fresh read makes.
      for (const strategy of [undefined, ...STRATEGIES])
        assert.deepEqual(
          graphView(await graphs.load(scopeA, strategy)),
          graphView(await cold.load(scopeA, strategy)),
          `seed ${seed}, step ${step}, graph of ${strategy ?? "every strategy"}`,
        );
      await coldStore.close();
    }
  } finally {
    await store.close();
    await other.close();
    db.drop();
  }
  return { rebuilds };
}

describe("live indexes", () => {
  for (const seed of [1, 2, 3, 4])
    it(`answer what a fresh index answers after random writes, forgets and another process's writes (seed ${seed})`, async () => {
      const { rebuilds } = await run(seed, 60, sqliteDatabase());
      assert.deepEqual(rebuilds, [], "every change arrived as a delta");
    });

  it("builds again, and says so, when the change log no longer reaches back", async () => {
    const store = new SqliteStore(":memory:");
    const rebuilds: string[] = [];
    const live = new InProcessRetriever(store, embedder, {
      onRebuild: (_s, kind, why) => rebuilds.push(`${kind}: ${why}`),
    });
    await store.write(scopeA, { memories: [memory(scopeA, "Sam adopted a beagle.")] });
    assert.equal((await live.searchMemories(scopeA, { query: "beagle", k: 5 })).length, 1);
    // Pretend the log was pruned past the index's version.
    const db = (store as unknown as { db: { exec(sql: string): void } }).db;
    await store.write(scopeA, { memories: [memory(scopeA, "Sam has a beagle called Rex.")] });
    db.exec("UPDATE scope_horizons SET horizon = 1000 WHERE agent = 'ava'");
    db.exec("INSERT OR IGNORE INTO scope_horizons (tenant, agent, horizon) VALUES ('t1', 'ava', 1000)");
    assert.equal((await live.searchMemories(scopeA, { query: "beagle", k: 5 })).length, 2);
    assert.ok(
      rebuilds.some((r) => r.startsWith("memories: the change log no longer reaches back")),
      rebuilds.join(),
    );
    await store.close();
  });
});

describe("live indexes on a Postgres server", { skip: postgresSkipReason() ?? false }, () => {
  let cluster: PostgresCluster | undefined;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  for (const seed of [5, 6])
    it(`answer what a fresh index answers, another connection writing too (seed ${seed})`, async () => {
      const url = await cluster!.createDatabase();
      const { rebuilds } = await run(seed, 45, { open: () => openPostgresStore(url), drop: () => undefined });
      assert.deepEqual(rebuilds, [], "every change arrived as a delta");
    });
});
