/**
 * `npm run bench cold`: the cold load of one large scope, read by a process that holds nothing
 * of it yet (a replica's first request for a scope), on each store asked for. The scope is
 * filled once (`fillLiving`: sessions of 20 turns, one memory per turn, hash vectors) and kept,
 * so later runs time the load alone. Each run opens a fresh engine over the store and times
 * every read the two indexes make on their own (memories, edges, memory vectors, turns, turn
 * vectors, sessions), then the first recall, which builds both indexes.
 */

import { openMemlane } from "../../src/engine/open-memlane.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { flag } from "./args.js";
import { fillLiving } from "./live.js";

const s = (x: number) => `${(x / 1000).toFixed(2)} s`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

export async function benchColdLoad(args: string[]): Promise<void> {
  const turns = Number(flag(args, "turns", "20000"));
  const runs = Number(flag(args, "runs", "2"));
  // 512 is the bundled encoder's width: the bytes each vector costs to read and decode.
  const dims = Number(flag(args, "dims", "256"));
  const stores = flag(args, "stores", "").split(",").filter(Boolean);
  if (stores.length === 0)
    throw new Error(
      "--stores names the stores: sqlite:<file>, postgres://… or pglite:<dir> (kept between runs)",
    );
  const scope = { tenant: "cold", agent: `ava-${turns}${dims === 256 ? "" : `-${dims}`}` };
  console.log(
    `\n## Cold load of a scope of ${turns.toLocaleString("en")} turns and as many memories (hash embedder, ${dims} dimensions)\n\n| store | run | memories | edges | memory vectors | turns | turn vectors | sessions | first recall (both indexes built) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  );
  for (const spec of stores) {
    const label = spec.replace(/\/\/[^@]*@/, "//");
    {
      const mem = await openMemlane({
        store: spec,
        tenant: scope.tenant,
        embedder: new HashEmbedder(dims),
        strategy: "carecall",
      });
      const held = (await mem.store.listSessions(scope)).length;
      if (held === 0) {
        const [, fill] = await timed(() => fillLiving(mem.store, scope, turns, mem.embedder, "carecall"));
        console.log(`| ${label} | fill | ${s(fill)} | | | | | | |`);
      }
      await mem.close();
    }
    for (let run = 1; run <= runs; run++) {
      const mem = await openMemlane({
        store: spec,
        tenant: scope.tenant,
        embedder: new HashEmbedder(dims),
        strategy: "carecall",
      });
      const store = mem.store;
      const model = mem.embedder.name;
      const [memories, tm] = await timed(() => store.listMemories(scope, { status: "any" }));
      const [, te] = await timed(() => store.listEdges(scope));
      const [, tmv] = await timed(() =>
        store.getEmbeddings(
          scope,
          "memory",
          memories.map((m) => m.id),
          model,
        ),
      );
      const [turnRows, tt] = await timed(() => store.listTurns(scope));
      const [, ttv] = await timed(() =>
        store.getEmbeddings(
          scope,
          "turn",
          turnRows.map((t) => t.id),
          model,
        ),
      );
      const [, ts] = await timed(() => store.listSessions(scope));
      const [, recall] = await timed(() =>
        mem.recall({ agent: scope.agent, about: "sam", query: "what did Sam say about the garden?" }),
      );
      console.log(
        `| ${label} | ${run} | ${s(tm)} | ${s(te)} | ${s(tmv)} | ${s(tt)} | ${s(ttv)} | ${s(ts)} | ${s(recall)} |`,
      );
      await mem.close();
    }
  }
}
