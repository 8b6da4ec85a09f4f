/**
 * An experiment kept so it can be rerun, not a shipped signal: does a turn read together with the
 * turn before it (one vector for the pair, "Ann: …\nBen: …") find evidence the turn alone misses?
 * A reply's meaning often sits in the question it answers ("A red kelpie." after "What breed?").
 * Each of the hybrid's top 50 turns earns wp × its pair with the turn before and wn × its pair with
 * the turn after (cosine, divided by the best among the 50), and the 50 are ranked again. The pair
 * vector of a turn and the one after it is the same text, so a store would keep one extra vector
 * per turn, embedded when the turn arrives. Weights are chosen leave-one-conversation-out on R@10.
 *
 *   node --import tsx lab/eval/recall/context-pairs.ts <locomo.json>[,<locomo.json>…]
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { readLocomo } from "../../../src/engine/ingest/formats/locomo.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { turnEmbeddingText } from "../../../src/retrieval/turn-embedding-text.js";
import {
  chooseHeldOut,
  evidenceTurns,
  type GridRow,
  ingestedTurnIndex,
  LOO_KS,
  recallByConversation,
} from "./leave-one-out.js";

/** The turns re-ranked: deep enough that R@10 no longer moves with it (25, 50 and 300 agreed on dev). */
const RERANKED = 50;

/** [wp, wn] points; the first is the hybrid as it ships. */
export const PAIR_GRID: [number, number][] = [
  [0, 0],
  ...[0, 0.1, 0.2, 0.35, 0.5].flatMap((wp) =>
    [0, 0.1, 0.2, 0.35, 0.5].filter((wn) => wp || wn).map((wn): [number, number] => [wp, wn]),
  ),
];

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The re-ranked order of `ids` (best first) for one grid point. */
export function rerank(
  ids: string[],
  scores: number[],
  before: (number | undefined)[],
  after: (number | undefined)[],
  [wp, wn]: [number, number],
): string[] {
  const best = (xs: (number | undefined)[]) => Math.max(1e-9, ...xs.map((x) => x ?? 0));
  const bp = best(before);
  const bn = best(after);
  const fused = ids.map((id, i) => ({
    id,
    i,
    score: scores[i]! + (wp * Math.max(0, before[i] ?? 0)) / bp + (wn * Math.max(0, after[i] ?? 0)) / bn,
  }));
  return fused.sort((a, b) => b.score - a.score || a.i - b.i).map((f) => f.id);
}

async function main(files: string[]): Promise<void> {
  const { resolveEmbedder } = await import("../../../src/engine/config.js");
  const embedder: Embedder = resolveEmbedder(undefined);
  const rows: GridRow[] = [];
  for (const file of files)
    for (const sample of readLocomo(JSON.parse(await readFile(file, "utf8")))) {
      process.stderr.write(`${sample.sampleId}: ingesting\n`);
      const index = await ingestedTurnIndex(sample, embedder);
      const turns = index.turns;
      // pair[i]: turn i read after the turn before it in its session (turn i alone when it opens one).
      const texts = turns.map((t, i) => {
        const prev = turns[i - 1];
        const line = turnEmbeddingText(t);
        return prev && prev.sessionId === t.sessionId ? `${turnEmbeddingText(prev)}\n${line}` : line;
      });
      const pair = await embedder.embed(texts);
      const at = new Map(turns.map((t, i) => [t.id, i]));
      const known = new Set(at.keys());
      for (const q of sample.qa.filter((x) => x.category >= 1 && x.category <= 4)) {
        const gold = evidenceTurns(sample.sampleId, q, known);
        if (gold.length === 0) continue;
        const [vector] = await embedder.embed([q.question]);
        const hits = await index.search(q.question, { k: RERANKED, vector });
        const ids = hits.map((h) => h.id);
        const before = ids.map((id) => dot(pair[at.get(id)!]!, vector!));
        const after = ids.map((id) => {
          const i = at.get(id)!;
          const next = turns[i + 1];
          return next && next.sessionId === turns[i]!.sessionId ? dot(pair[i + 1]!, vector!) : undefined;
        });
        const scores = hits.map((h) => h.score);
        rows.push({
          conv: sample.sampleId,
          category: q.category,
          recall: PAIR_GRID.map((point) => {
            const ranked = rerank(ids, scores, before, after, point);
            return LOO_KS.map((k) => {
              const top = new Set(ranked.slice(0, k));
              return gold.filter((g) => top.has(g)).length / gold.length;
            });
          }),
        });
      }
    }
  const chosen = chooseHeldOut(rows, PAIR_GRID.length, "r10");
  const lines = ["| held out | chosen on the others [wp, wn] |", "| --- | --- |"];
  for (const [conv, p] of chosen) lines.push(`| ${conv} | ${JSON.stringify(PAIR_GRID[p])} |`);
  const scored = rows.map((r) => ({
    conv: r.conv,
    category: r.category,
    recall: r.recall[chosen.get(r.conv)!]!,
    baseline: r.recall[0]![LOO_KS.indexOf(10)]!,
  }));
  lines.push("", ...recallByConversation(scored, [...chosen.keys()], "R@10 as shipped"));
  process.stdout.write(`${lines.join("\n")}\n`);
  await embedder.close?.();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [files] = process.argv.slice(2);
  if (!files) {
    process.stderr.write("usage: context-pairs.ts <locomo.json>[,<locomo.json>…]\n");
    process.exitCode = 2;
  } else await main(files.split(","));
}
