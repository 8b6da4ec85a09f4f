/**
 * `npm run bench live`: an agent living with memlane. The agent loop (one partner turn with the
 * strategy's per-turn work, then a recall) in a scope that already holds 1K, 10K or 100K turns,
 * against a recall with no write before it; the cold load of the largest scope; many scopes in
 * one process (RSS and recall p95 under the index budget); the longest event-loop stall (a 10 ms
 * timer's delay) while heavy requests run; and ingest throughput per strategy. Scopes are filled
 * by direct store writes (sessions of 20 turns, each with one memory made from it), with vectors
 * from the embedder under test, so recall never embeds the history again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../src/core/ids.js";
import type { Memory, Scope, Session, Turn } from "../../src/core/types.js";
import { openMemlane } from "../../src/engine/memlane.js";
import type { Embedder } from "../../src/models/embedder.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import type { MemoryStore } from "../../src/store/memory-store.js";
import type { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { flag } from "./args.js";
import { percentile, synthetic } from "./recall.js";

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Fills one scope with `size` turns in closed sessions of 20 and one memory per turn, embedded by `embedder`. */
export async function fillLiving(
  store: MemoryStore,
  scope: Scope,
  size: number,
  embedder: Embedder,
  strategy: string,
  seed = 7,
): Promise<void> {
  const { sentence, at } = synthetic(seed);
  for (let start = 0; start < size; start += 2000) {
    const count = Math.min(size, start + 2000) - start;
    const sessions: Session[] = [];
    const turns: Turn[] = Array.from({ length: count }, (_, j) => {
      const i = start + j;
      const sessionId = `s${Math.floor(i / 20)}`;
      if (i % 20 === 0)
        sessions.push({
          id: sessionId,
          ...scope,
          partners: ["sam"],
          at: at(i),
          status: "closed",
          strategy,
          meta: {},
          recordedAt: "",
        });
      const text = `${sentence(10)}.`;
      return {
        id: newId("turn"),
        ...scope,
        sessionId,
        index: i % 20,
        speaker: i % 2 ? "sam" : "ava",
        text,
        at: at(i),
        meta: {},
      };
    });
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
      attributes: {},
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
    await store.write(scope, { sessions, turns, memories, embeddings });
  }
}

/** The agent loop at each size: p50/p95 of recall alone, and of a turn then a recall. */
async function agentLoop(
  sizes: number[],
  rounds: number,
  strategy: string,
  embedderName: string,
): Promise<void> {
  console.log(
    `\n## Agent loop (strategy ${strategy}, embedder ${embedderName}, ${rounds} rounds)\n\n| turns in the scope | fill | first recall (cold load) | recall alone p50 / p95 | turn p50 | turn + recall p50 / p95 | ratio of p50s |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  );
  const { sentence } = synthetic(11);
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), "memlane-bench-live-"));
    const file = join(dir, "live.db");
    const embedder = embedderName === "hash" ? new HashEmbedder() : null;
    const mem = await openMemlane({ store: `sqlite:${file}`, strategy, embedder: embedder ?? "use" });
    const scope = { tenant: "default", agent: "ava" };
    let started = performance.now();
    await fillLiving(mem.store, scope, size, mem.embedder, strategy);
    const fill = performance.now() - started;
    const ask = () => `what did Sam say about the ${sentence(2)}?`;
    started = performance.now();
    await mem.recall({ agent: "ava", about: "sam", query: ask() });
    const cold = performance.now() - started;
    const alone: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await mem.recall({ agent: "ava", about: "sam", query: ask() });
      alone.push(performance.now() - t0);
    }
    const session = await mem.session({ agent: "ava", partner: "sam", at: "2030-01-01T10:00:00Z" });
    const loop: number[] = [];
    const turnOnly: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await session.turn("sam", `${sentence(12)}.`);
      const t1 = performance.now();
      await mem.recall({ agent: "ava", about: "sam", query: ask() });
      loop.push(performance.now() - t0);
      turnOnly.push(t1 - t0);
    }
    const p50 = percentile(alone, 0.5);
    const l50 = percentile(loop, 0.5);
    console.log(
      `| ${size.toLocaleString("en")} | ${(fill / 1000).toFixed(1)} s | ${ms(cold)} | ${ms(p50)} / ${ms(percentile(alone, 0.95))} | ${ms(percentile(turnOnly, 0.5))} | ${ms(l50)} / ${ms(percentile(loop, 0.95))} | ${(l50 / p50).toFixed(1)}× |`,
    );
    await mem.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLive(args: string[]): Promise<void> {
  const sizes = flag(args, "sizes", "1000,10000,100000").split(",").map(Number);
  const rounds = Number(flag(args, "rounds", "40"));
  const strategies = flag(args, "strategy", "creem").split(",");
  const embedders = flag(args, "embedders", "hash,use").split(",");
  const parts = flag(args, "parts", "loop").split(",");
  console.log(`# npm run bench live (node ${process.version}, load ${(await loadAverage()).join(" ")})`);
  if (parts.includes("loop"))
    for (const embedder of embedders)
      for (const strategy of strategies) await agentLoop(sizes, rounds, strategy, embedder);
}

async function loadAverage(): Promise<string[]> {
  const { loadavg } = await import("node:os");
  return loadavg().map((x) => x.toFixed(2));
}

// Keeps SqliteStore in the import graph for the scenarios that open stores directly.
export type { SqliteStore };
