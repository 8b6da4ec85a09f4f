/**
 * `npm run bench live`: an agent living with memlane. The agent loop (one partner turn with the
 * strategy's per-turn work, then a recall) in a scope that already holds 1K, 10K or 100K turns,
 * against a recall with no write before it; one long session per strategy (a turn and a reply,
 * early against late: the per-turn path should not grow with the session); the cold load of the
 * largest scope; many scopes in
 * one process (RSS and recall p95 under the index budget); the longest event-loop stall (a 10 ms
 * timer's delay) while heavy requests run; and ingest throughput per strategy. Scopes are filled
 * by direct store writes (sessions of 20 turns, each with one memory made from it), with vectors
 * from the embedder under test, so recall never embeds the history again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { newId } from "../../src/core/ids.js";
import type { Edge, Memory, Scope } from "../../src/core/types.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import type { Embedder } from "../../src/models/embedder.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { InProcessRetriever } from "../../src/retrieval/in-process-retriever.js";
import type { MemoryStore } from "../../src/store/memory-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { flag, LOCOMO } from "./args.js";
import { benchIngest } from "./ingest.js";
import { conversationRows, percentile, synthetic, type Vocabulary } from "./recall.js";

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Fills one scope with `size` turns in closed sessions of 20 and one memory per turn, embedded by `embedder`. */
export async function fillLiving(
  store: MemoryStore,
  scope: Scope,
  size: number,
  embedder: Embedder,
  strategy: string,
  seed = 7,
  vocabulary: Vocabulary = "flat",
  links = false,
): Promise<void> {
  const synth = synthetic(seed, vocabulary);
  // With `links`, each memory is linked to one of the 50 before it: one component of the whole
  // history, as theanine's Phase I and EMMA's chains leave a long life.
  const recent: string[] = [];
  let pick = seed;
  for (let start = 0; start < size; start += 2000) {
    const count = Math.min(size, start + 2000) - start;
    const { sessions, turns } = conversationRows(scope, start, count, synth, strategy);
    const memories: Memory[] = turns.map((t) => ({
      id: newId("mem"),
      ...scope,
      about: "sam",
      text: `Sam said ${t.text}`,
      kind: "summary",
      strategy,
      observedAt: t.at,
      recordedAt: "",
      status: "active",
      invalidAt: null,
      sessionId: t.sessionId,
      sourceTurns: [t.id],
      // As the write path stamps them: heard by the session's partner (core/audience.ts).
      attributes: { audience: ["sam"] },
    }));
    const [turnVectors, memoryVectors] = await Promise.all([
      embedder.embed(turns.map((t) => t.text)),
      embedder.embed(memories.map((m) => m.text)),
    ]);
    const embeddings = [
      ...turns.map((t, i) => ({
        ownerKind: "turn" as const,
        ownerId: t.id,
        model: embedder.name,
        vector: turnVectors[i]!,
      })),
      ...memories.map((m, i) => ({
        ownerKind: "memory" as const,
        ownerId: m.id,
        model: embedder.name,
        vector: memoryVectors[i]!,
      })),
    ];
    const edges: Edge[] = [];
    if (links)
      for (const m of memories) {
        pick = (pick * 1103515245 + 12345) % 2147483648;
        const from = recent.length ? recent[recent.length - 1 - (pick % recent.length)] : undefined;
        if (from)
          edges.push({
            id: `edge_${from}_${m.id}`,
            ...scope,
            from,
            to: m.id,
            type: "Cause",
            attributes: {},
            recordedAt: m.observedAt,
          });
        recent.push(m.id);
        if (recent.length > 50) recent.shift();
      }
    await store.write(scope, { sessions, turns, memories, embeddings, edges });
  }
}

/** A store for `--stores`: a file under `dir` for sqlite and pglite, else the URL as given. */
const storeSpec = (kind: string, dir: string) =>
  kind === "sqlite" ? `sqlite:${join(dir, "live.db")}` : kind === "pglite" ? `pglite:${dir}/pg` : kind;

/** Short sessions closed after the agent loop, in the loop's scope. */
const SESSION_ENDS = 5;

/**
 * The agent loop at each size: p50/p95 of recall alone, and of a turn then a recall; then a few
 * session ends in the same scope (each consolidated against everything the scope holds).
 */
async function agentLoop(
  sizes: number[],
  rounds: number,
  warmup: number,
  strategy: string,
  embedderName: string,
  storeKind: string,
  vocabulary: Vocabulary,
  links: boolean,
): Promise<void> {
  console.log(
    `\n## Agent loop (store ${storeKind}, strategy ${strategy}, embedder ${embedderName}, ${rounds} rounds after ${warmup} warm-up rounds, ${vocabulary} words${links ? ", each memory linked to one of the 50 before it" : ""})\n\n| turns in the scope | fill | first recall (cold load) | warm-up recalls p50 / max | recall alone p50 / p95 | warm-up turn + recall p50 / max | turn p50 | recall after the turn p50 / p95 | turn + recall p50 / p95 | after / alone (p50) |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  );
  const { sentence } = synthetic(11, vocabulary);
  // The cost of `turns: 2` (the turns the memories missed: one more turn search), in the same scope.
  const withTurns: string[] = [];
  const sessionEnds: string[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), "memlane-bench-live-"));
    const embedder = embedderName === "hash" ? new HashEmbedder() : null;
    const store = storeSpec(storeKind, dir);
    const mem = await openMemlane({ store, strategy, embedder: embedder ?? "use" });
    const scope = { tenant: "default", agent: "ava" };
    let started = performance.now();
    await fillLiving(mem.store, scope, size, mem.embedder, strategy, 7, vocabulary, links);
    const fill = performance.now() - started;
    const ask = () => `what did Sam say about the ${sentence(2)}?`;
    started = performance.now();
    await mem.recall({ agent: "ava", about: "sam", query: ask() });
    const cold = performance.now() - started;
    // The first recalls after a cold load pay its garbage collection: shown apart, as the loop's
    // warm-up rounds are.
    const firstRecalls: number[] = [];
    for (let i = 0; i < warmup; i++) {
      const t0 = performance.now();
      await mem.recall({ agent: "ava", about: "sam", query: ask() });
      firstRecalls.push(performance.now() - t0);
    }
    const alone: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await mem.recall({ agent: "ava", about: "sam", query: ask() });
      alone.push(performance.now() - t0);
    }
    // Alternating, so both see the same machine.
    const plain: number[] = [];
    const mixed: number[] = [];
    for (let i = 0; i < rounds; i++)
      for (const [turns, times] of [
        [0, plain],
        [2, mixed],
      ] as const) {
        const t0 = performance.now();
        await mem.recall({ agent: "ava", about: "sam", query: ask(), turns });
        times.push(performance.now() - t0);
      }
    withTurns.push(
      `| ${size.toLocaleString("en")} | ${ms(percentile(plain, 0.5))} / ${ms(percentile(plain, 0.95))} | ${ms(percentile(mixed, 0.5))} / ${ms(percentile(mixed, 0.95))} |`,
    );
    const session = await mem.session({ agent: "ava", partner: "sam", at: "2030-01-01T10:00:00Z" });
    /** One loop round: a partner turn, then a recall; the time of each. */
    const round = async () => {
      const t0 = performance.now();
      await session.turn("sam", `${sentence(12)}.`);
      const t1 = performance.now();
      await mem.recall({ agent: "ava", about: "sam", query: ask() });
      return { turn: t1 - t0, recall: performance.now() - t1 };
    };
    // The first rounds after a process starts pay one-time costs (the tagger's load, compiling
    // the per-turn path, collecting the fill's garbage): shown apart, not mixed into the steady state.
    const first: number[] = [];
    for (let i = 0; i < warmup; i++) {
      const r = await round();
      first.push(r.turn + r.recall);
    }
    const loop: number[] = [];
    const turnOnly: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const r = await round();
      loop.push(r.turn + r.recall);
      turnOnly.push(r.turn);
      after.push(r.recall);
    }
    // Session ends in the same scope: the strategy consolidates each against everything held.
    await (await session.close()).done;
    const ends: number[] = [];
    let endStall = 0;
    for (let i = 0; i < SESSION_ENDS; i++) {
      const r = await longestStall(async () => {
        const s = await mem.session({
          agent: "ava",
          partner: "sam",
          at: new Date(Date.UTC(2030, 1, 1 + i)).toISOString(),
        });
        for (let t = 0; t < 4; t++) await s.turn("sam", `I went to the ${sentence(3)} with my sister.`);
        await (await s.close()).done;
      });
      if (r.error) throw new Error(`a session end failed: ${r.error}`);
      ends.push(r.took);
      endStall = Math.max(endStall, r.stall);
    }
    sessionEnds.push(
      `| ${size.toLocaleString("en")} | ${ms(percentile(ends, 0.5))} / ${ms(Math.max(...ends))} | ${ms(endStall)} |`,
    );
    const p50 = percentile(alone, 0.5);
    console.log(
      `| ${size.toLocaleString("en")} | ${(fill / 1000).toFixed(1)} s | ${ms(cold)} | ${firstRecalls.length ? `${ms(percentile(firstRecalls, 0.5))} / ${ms(Math.max(...firstRecalls))}` : "-"} | ${ms(p50)} / ${ms(percentile(alone, 0.95))} | ${first.length ? `${ms(percentile(first, 0.5))} / ${ms(Math.max(...first))}` : "-"} | ${ms(percentile(turnOnly, 0.5))} | ${ms(percentile(after, 0.5))} / ${ms(percentile(after, 0.95))} | ${ms(percentile(loop, 0.5))} / ${ms(percentile(loop, 0.95))} | ${(percentile(after, 0.5) / p50).toFixed(2)}× |`,
    );
    await mem.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nRecall with the turns the memories missed (\`turns: 2\`), no write before it, alternating with a plain recall:\n\n| turns in the scope | plain p50 / p95 | turns: 2 p50 / p95 |\n| ---: | ---: | ---: |\n${withTurns.join("\n")}`,
  );
  console.log(
    `\nSession ends in the same scope, after the loop's session closed: ${SESSION_ENDS} sessions of 4 partner turns, each closed and consolidated (${strategy}), and the longest event-loop stall while they ran:\n\n| turns in the scope | session end p50 / max | longest stall |\n| ---: | ---: | ---: |\n${sessionEnds.join("\n")}`,
  );
}

/** Many scopes in one process: each filled, then recalled in random order under the index budget. */
async function manyScopes(scopes: number, turns: number, budget: number | undefined): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-scopes-"));
  const store = new SqliteStore(join(dir, "scopes.db"));
  const embedder = new HashEmbedder();
  const retriever = new InProcessRetriever(store, embedder, budget === undefined ? {} : { budget });
  const mem = await openMemlane({ store, strategy: "none", embedder, retriever });
  const started = performance.now();
  for (let i = 0; i < scopes; i++)
    await fillLiving(mem.store, { tenant: "default", agent: `a${i}` }, turns, mem.embedder, "none", i);
  const fill = performance.now() - started;
  const before = settledBytes();
  const { sentence } = synthetic(5);
  const times: number[] = [];
  let peak = 0;
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < scopes; i++) {
      const agent = `a${(i * 7919 + round * 31) % scopes}`;
      const t0 = performance.now();
      await mem.recall({ agent, scope: "agent", query: `what about the ${sentence(2)}?`, units: "turns" });
      times.push(performance.now() - t0);
      if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
  const b = retriever.budget;
  const grown = settledBytes() - before;
  console.log(
    `\n## ${scopes.toLocaleString("en")} scopes of ${turns.toLocaleString("en")} turns in one process (strategy none, hash embedder, turn recall, every scope asked twice in shuffled order)\n\n| index budget | fill | recall p50 / p95 | indexes held | index bytes held (counted) | heap + external grown, after GC | peak RSS |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n| ${mib(b.limit)} | ${(fill / 1000).toFixed(0)} s | ${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.95))} | ${b.count} | ${mib(b.used)} | ${mib(grown)} | ${mib(peak)} |`,
  );
  await mem.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Heap and external memory after a full collection: what the process really holds, garbage aside. */
function settledBytes(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Runs `work` while a 10 ms timer ticks; the longest delay past its due time is the longest stall. */
async function longestStall(
  work: () => Promise<unknown>,
): Promise<{ stall: number; took: number; error?: string }> {
  let stall = 0;
  let due = performance.now() + 10;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - due);
    due = now + 10;
  }, 10);
  const started = performance.now();
  let error: string | undefined;
  try {
    await work();
  } catch (e) {
    error = (e as Error).message.slice(0, 80);
  } finally {
    clearInterval(timer);
  }
  const took = performance.now() - started;
  // Work that never gave the loop back stalls it for its whole length.
  return { stall: Math.max(stall, performance.now() - due), took, error };
}

/**
 * An upload of `sessions` daily sessions of six turns between `agent` and Sam, Sam first: the
 * heavy upload the stall and fairness benches send. `said(i, j)` is line j of session i.
 */
export function sessionUpload(agent: string, sessions: number, said: (i: number, j: number) => string) {
  return {
    agent,
    sessions: Array.from({ length: sessions }, (_, i) => ({
      id: `u${i}`,
      at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
      partner: "sam",
      turns: Array.from({ length: 6 }, (_, j) => ({ speaker: j % 2 ? agent : "sam", text: said(i, j) })),
    })),
  };
}

/**
 * The event-loop stall of the heavy requests the issue names, offline carecall, on one store.
 * `coldTurns` is the size of the scope whose cold load is timed last.
 */
async function stalls(embedderName: string, storeKind: string, coldTurns: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-stall-"));
  const mem = await openMemlane({
    store: storeSpec(storeKind, dir),
    strategy: "carecall",
    embedder: embedderName === "hash" ? new HashEmbedder() : "use",
  });
  const { sentence } = synthetic(3);
  const rows: string[] = [];
  // As `memlane serve` does at start: one-time synchronous loads (the tagger, WordNet, the
  // encoder's model) are not a request's stall.
  const r0 = await longestStall(() => mem.warmUp());
  rows.push(`| warming up (once per process, before serving) | ${ms(r0.took)} | ${ms(r0.stall)} |`);
  const upload = sessionUpload("ava", 200, (_, j) =>
    j % 2
      ? "That sounds great, tell me more."
      : `I went to the ${sentence(3)} with my sister and it was lovely.`,
  );
  let r = await longestStall(() => mem.ingest(upload));
  rows.push(
    `| a 200-session upload (1,200 turns), ingested and consolidated | ${ms(r.took)} | ${ms(r.stall)} |`,
  );
  const prose =
    "I moved to Bristol last spring and adopted a beagle called Biscuit, who loves the park near the river, ";
  const long = prose.repeat(Math.ceil(1_000_000 / prose.length)).slice(0, 1_000_000);
  r = await longestStall(() =>
    mem.ingest({
      agent: "ava",
      sessions: [{ id: "long", at: "2025-01-01", partner: "sam", turns: [{ speaker: "sam", text: long }] }],
    }),
  );
  rows.push(
    `| one 1,000,000-character turn, stored and consolidated | ${r.error ? `refused (${r.error})` : ms(r.took)} | ${ms(r.stall)} |`,
  );
  const words =
    "Did Sam adopt a dog on 5 May 2023, before he moved to Bristol last spring, and what did he call it? ";
  const query = words.repeat(Math.ceil(100_000 / words.length)).slice(0, 100_000);
  r = await longestStall(() => mem.recall({ agent: "ava", about: "sam", query }));
  rows.push(
    `| a 100,000-character recall query | ${r.error ? `refused (${r.error})` : ms(r.took)} | ${ms(r.stall)} |`,
  );
  if (coldTurns > 0) {
    await fillLiving(mem.store, { tenant: "default", agent: "big" }, coldTurns, mem.embedder, "carecall");
    r = await longestStall(() =>
      mem.recall({ agent: "big", about: "sam", query: "what did Sam say about the beagle?" }),
    );
    rows.push(
      `| the first recall of a ${coldTurns.toLocaleString("en")}-turn scope (its cold load) | ${r.error ? `refused (${r.error})` : ms(r.took)} | ${ms(r.stall)} |`,
    );
    // Every memory there is about Sam: a session with him is consolidated against all of them.
    r = await longestStall(async () => {
      const s = await mem.session({ agent: "big", partner: "sam", at: "2031-01-01T10:00:00Z" });
      for (let t = 0; t < 4; t++) await s.turn("sam", `I went to the ${sentence(3)} with my sister.`);
      await (await s.close()).done;
    });
    rows.push(
      `| a 4-turn session with Sam in that scope, closed and consolidated | ${r.error ? `failed (${r.error})` : ms(r.took)} | ${ms(r.stall)} |`,
    );
    r = await longestStall(() => mem.forget({ agent: "big", about: "sam" }));
    rows.push(
      `| forgetting everything about Sam in that scope | ${r.error ? `failed (${r.error})` : ms(r.took)} | ${ms(r.stall)} |`,
    );
  }
  const where = storeKind.startsWith("postgres") ? "postgres" : storeKind;
  console.log(
    `\n## Longest event-loop stall (a 10 ms timer's delay; strategy carecall offline, embedder ${embedderName}, store ${where})\n\n| work | took | longest stall |\n| --- | ---: | ---: |\n${rows.join("\n")}`,
  );
  await mem.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * One long session per strategy: a partner turn, then the agent's reply, `turns` times. The
 * per-turn path should cost the same late in the session as early in it (the issue's item 2).
 */
async function longSession(strategies: string[], turns: number): Promise<void> {
  console.log(
    `\n## One session of ${turns.toLocaleString("en")} exchanges (hash embedder, offline; a partner turn then the reply)\n\n| strategy | exchanges 20-60 p50 / p95 | last 40 p50 / p95 | last / early (p50) |\n| --- | ---: | ---: | ---: |`,
  );
  const { sentence } = synthetic(5);
  for (const strategy of strategies) {
    const mem = await openMemlane({ store: ":memory:", strategy, embedder: new HashEmbedder() });
    const session = await mem.session({ agent: "ava", partner: "sam", at: "2030-01-01T10:00:00Z" });
    const early: number[] = [];
    const late: number[] = [];
    for (let i = 0; i < turns; i++) {
      const t0 = performance.now();
      await session.turn("sam", `${sentence(12)}.`);
      await session.reply();
      const took = performance.now() - t0;
      if (i >= 20 && i < 60) early.push(took);
      if (i >= turns - 40) late.push(took);
    }
    const ratio = percentile(late, 0.5) / percentile(early, 0.5);
    console.log(
      `| ${strategy} | ${ms(percentile(early, 0.5))} / ${ms(percentile(early, 0.95))} | ${ms(percentile(late, 0.5))} / ${ms(percentile(late, 0.95))} | ${ratio.toFixed(2)}× |`,
    );
    await mem.close();
  }
}

export async function benchLive(args: string[]): Promise<void> {
  const sizes = flag(args, "sizes", "1000,10000,100000").split(",").map(Number);
  const rounds = Number(flag(args, "rounds", "40"));
  // Loop rounds run before the measured ones (reported apart): a live agent's steady state.
  const warmup = Number(flag(args, "warmup", "20"));
  if (!Number.isInteger(warmup) || warmup < 0)
    throw new Error(`--warmup takes a whole number of rounds, not "${flag(args, "warmup", "")}"`);
  const strategies = flag(args, "strategy", "creem").split(",");
  const embedders = flag(args, "embedders", "hash,use").split(",");
  const parts = flag(args, "parts", "loop,session,scopes,stalls,ingest").split(",");
  const scopes = Number(flag(args, "scopes", "1000"));
  // sqlite, pglite (Postgres in this process, with pgvector), or a postgres:// URL of an empty database.
  const stores = flag(args, "stores", "sqlite").split(",");
  const budget = args.includes("--budget") ? Number(flag(args, "budget", "0")) : undefined;
  // The agent loop's text: `flat` (30 words, the hard case for BM25) or `zipf` (see Vocabulary).
  const vocabularies = flag(args, "words", "flat").split(",") as Vocabulary[];
  for (const v of vocabularies)
    if (v !== "flat" && v !== "zipf")
      throw new Error(`--words takes flat, zipf or both (flat,zipf), not "${v}"`);
  // The cold-load row's scope: 100K turns by default; 0 leaves the row out (filling 100K turns
  // takes minutes with the bundled encoder or on PGlite).
  const coldTurns = Number(flag(args, "cold-turns", "100000"));
  if (!Number.isInteger(coldTurns) || coldTurns < 0)
    throw new Error(`--cold-turns takes a whole number of turns, not "${flag(args, "cold-turns", "")}"`);
  console.log(`# npm run bench live (node ${process.version}, load ${(await loadAverage()).join(" ")})`);
  if (parts.includes("loop"))
    for (const embedder of embedders)
      for (const strategy of strategies)
        for (const store of stores)
          for (const vocabulary of vocabularies)
            await agentLoop(
              sizes,
              rounds,
              warmup,
              strategy,
              embedder,
              store,
              vocabulary,
              args.includes("--links"),
            );
  if (parts.includes("session")) await longSession(strategies, Number(flag(args, "session-turns", "800")));
  if (parts.includes("scopes")) await manyScopes(scopes, 1000, budget);
  if (parts.includes("stalls"))
    for (const embedder of embedders) for (const store of stores) await stalls(embedder, store, coldTurns);
  if (parts.includes("ingest")) {
    console.log("\n## Ingest throughput (npm run bench ingest), bundled encoder");
    for (const strategy of ["none", "carecall", "creem"]) await benchIngest([LOCOMO, "--strategy", strategy]);
  }
}

async function loadAverage(): Promise<string[]> {
  const { loadavg } = await import("node:os");
  return loadavg().map((x) => x.toFixed(2));
}
