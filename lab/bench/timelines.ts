/** Theanine's memory graph on a conversation file (offline): links by relation, timeline lengths. */
import { loadTranscripts } from "../../src/engine/ingest/formats/load.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { flag, LOCOMO, positional } from "./args.js";

export async function benchTimelines(args: string[]): Promise<void> {
  const file = positional(args, LOCOMO);
  const embedder = flag(args, "embedder", "use") as "use" | "hash";
  const mem = await openMemlane({ store: ":memory:", strategy: "theanine", embedder });
  const started = performance.now();
  const lengths: number[] = [];
  const sessionsSpanned: number[] = [];
  const relations: Record<string, number> = {};
  let memories = 0;
  for (const t of await loadTranscripts(file)) {
    await mem.ingest(t);
    const all = await mem.memories(t.agent);
    memories += all.length;
    for (const e of await mem.store.listEdges(mem.scope(t.agent)))
      relations[e.type] = (relations[e.type] ?? 0) + 1;
    for (const m of all) {
      const { chain } = await mem.timeline(t.agent, m.id);
      lengths.push(chain.length);
      const sessionOf = new Map(all.map((x) => [x.id, x.sessionId]));
      sessionsSpanned.push(new Set(chain.map((c) => sessionOf.get(c.id))).size);
    }
  }
  await mem.close();
  const sorted = [...lengths].sort((a, b) => a - b);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(
    `theanine, offline cognition, embedder ${embedder}: ${memories} memories in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`links by relation: ${JSON.stringify(relations)}`);
  console.log(
    `timeline length (memories on the chain through each memory): mean ${mean(lengths).toFixed(2)}, median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}; ${lengths.filter((l) => l > 1).length} of ${lengths.length} memories are on a chain of 2 or more`,
  );
  console.log(
    `sessions spanned by a timeline: mean ${mean(sessionsSpanned).toFixed(2)}, max ${Math.max(...sessionsSpanned)}; ${sessionsSpanned.filter((s) => s > 1).length} timelines span several sessions`,
  );
}
