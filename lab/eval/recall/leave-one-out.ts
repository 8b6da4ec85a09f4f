/**
 * Leave-one-conversation-out for the hybrid turn ranker's fusion weights: for each conversation,
 * the grid point that scores best on the others is chosen, and only the held-out conversation's
 * questions score it. A weight chosen on every conversation at once and reported on the same ones
 * says how well it fits them, not how it will do on the next one; this says the latter.
 *
 *   node --import tsx lab/eval/recall/leave-one-out.ts <locomo.json>[,<locomo.json>…] [dated|fusion|shape]
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { OfflineCognition } from "../../../src/cognition/offline/offline-cognition.js";
import {
  type LocomoQuestion,
  type LocomoSample,
  readLocomo,
} from "../../../src/engine/ingest/formats/locomo.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { FUSION_WEIGHTS, type FusionWeights } from "../../../src/retrieval/fusion.js";
import { TurnIndex } from "../../../src/retrieval/turn-search.js";
import { categoryLabel } from "./evaluate.js";

export const LOO_KS = [1, 5, 10, 25];

/** One question's recall@LOO_KS at every grid point. */
export interface GridRow {
  conv: string;
  category: number;
  recall: number[][];
}

/**
 * What the search maximises: R@10, then R@25 and R@5 as lesser parts (`blend`), or R@10 alone
 * (`r10`, the measure the recall issue's targets are set in).
 */
export type Objective = "blend" | "r10";

/** R@10 + ½ R@25 + ¼ R@5 of one question's recall@LOO_KS: R@10 first, the deeper and shallower ones breaking its ties. */
export function blend(recall: number[]): number {
  return recall[2]! + 0.5 * recall[3]! + 0.25 * recall[1]!;
}

export function objective(rows: GridRow[], point: number, measure: Objective = "blend"): number {
  if (rows.length === 0) return 0;
  let score = 0;
  for (const r of rows) score += measure === "r10" ? r.recall[point]![2]! : blend(r.recall[point]!);
  return score / rows.length;
}

/** For each conversation, the grid point chosen on the other conversations' rows alone. */
export function chooseHeldOut(
  rows: GridRow[],
  points: number,
  measure: Objective = "blend",
): Map<string, number> {
  const chosen = new Map<string, number>();
  for (const conv of new Set(rows.map((r) => r.conv))) {
    const others = rows.filter((r) => r.conv !== conv);
    let best = 0;
    for (let p = 1; p < points; p++)
      if (objective(others, p, measure) > objective(others, best, measure) + 1e-12) best = p;
    chosen.set(conv, best);
  }
  return chosen;
}

export type GridName = "dated" | "fusion" | "shape";

/**
 * The grids: `dated` moves the dated weight alone, `fusion` every fixed-bonus weight too, `shape`
 * the penalty for a turn that asks a question and the weight of its length (its first point,
 * both 0, is the hybrid without them).
 */
export function grid(name: GridName): FusionWeights[] {
  const dated = [0, 0.2, 0.35, 0.5, 0.7, 1];
  if (name === "dated") return dated.map((d) => ({ ...FUSION_WEIGHTS, dated: d }));
  if (name === "shape")
    return [0, 0.1, 0.2, 0.3, 0.5].flatMap((question) =>
      [0, 0.05, 0.1, 0.15, 0.2, 0.3].map((length) => ({ ...FUSION_WEIGHTS, question, length })),
    );
  const out: FusionWeights[] = [];
  for (const bm25 of [0.5, 1, 1.5])
    for (const subject of [0.35, 0.7, 1])
      for (const time of [0.35, 0.7, 1])
        for (const neighbour of [0.3, 0.55, 0.8])
          for (const d of [0, 0.35, 0.7])
            out.push({ ...FUSION_WEIGHTS, bm25, subject, time, neighbour, dated: d });
  return out;
}

/**
 * A conversation's turn index: the sample ingested into a store in memory (no strategy, so no
 * memories are written), then closed; the index holds what it needs in this process.
 */
export async function ingestedTurnIndex(sample: LocomoSample, embedder: Embedder): Promise<TurnIndex> {
  const mem = await openMemlane({
    store: ":memory:",
    cognition: new OfflineCognition(embedder),
    embedder,
    strategy: "none",
    tenant: "eval",
  });
  try {
    await mem.ingest(sample.transcript);
    return await TurnIndex.build(mem.store, mem.scope(sample.transcript.agent), embedder);
  } finally {
    await mem.close();
  }
}

/** A question's evidence as turn ids the index holds (ids may be listed apart by spaces, commas or semicolons). */
export function evidenceTurns(sampleId: string, q: LocomoQuestion, known: Set<string>): string[] {
  return (Array.isArray(q.evidence) ? q.evidence : [])
    .flatMap((e) => String(e).split(/[;,\s]+/))
    .map((e) => `${sampleId}:${e}`)
    .filter((id) => known.has(id));
}

/** Every question of categories 1-4 scored at every grid point (each conversation ingested once). */
export async function gridRows(
  samples: LocomoSample[],
  embedder: Embedder,
  points: FusionWeights[],
  onProgress?: (s: string) => void,
): Promise<GridRow[]> {
  const rows: GridRow[] = [];
  for (const sample of samples) {
    onProgress?.(`${sample.sampleId}: ingesting`);
    const index = await ingestedTurnIndex(sample, embedder);
    const known = new Set(index.turns.map((t) => t.id));
    for (const q of sample.qa.filter((x) => x.category >= 1 && x.category <= 4)) {
      const gold = evidenceTurns(sample.sampleId, q, known);
      if (gold.length === 0) continue;
      const [vector] = await embedder.embed([q.question]);
      const recall: number[][] = [];
      for (const weights of points) {
        const hits = await index.search(q.question, { k: 25, weights, vector });
        recall.push(
          LOO_KS.map((k) => {
            const found = new Set(hits.slice(0, k).flatMap((h) => h.sourceTurns));
            return gold.filter((g) => found.has(g)).length / gold.length;
          }),
        );
      }
      rows.push({ conv: sample.sampleId, category: q.category, recall });
    }
  }
  return rows;
}

/** One question's recall@LOO_KS as scored, and optionally a baseline's R@10 beside it. */
export interface ScoredQuestion {
  conv: string;
  category: number;
  recall: number[];
  baseline?: number;
}

/**
 * Markdown table lines: mean recall@LOO_KS pooled and per conversation (in `convs` order), each
 * over all categories and per category; with `baselineLabel`, the mean baseline R@10 beside.
 */
export function recallByConversation(
  rows: ScoredQuestion[],
  convs: string[],
  baselineLabel?: string,
): string[] {
  const extra = baselineLabel === undefined ? "" : ` | ${baselineLabel}`;
  const lines = [
    `| conversation | category | questions | ${LOO_KS.map((k) => `R@${k}`).join(" | ")}${extra} |`,
    `| --- | --- | ---: |${LOO_KS.map(() => " ---: |").join("")}${extra ? " ---: |" : ""}`,
  ];
  for (const conv of [undefined, ...convs])
    for (const category of [0, 1, 2, 3, 4]) {
      const rs = rows.filter((r) => (!conv || r.conv === conv) && (!category || r.category === category));
      if (rs.length === 0) continue;
      const mean = LOO_KS.map((_, i) => rs.reduce((a, r) => a + r.recall[i]!, 0) / rs.length);
      const base = extra ? ` | ${(rs.reduce((a, r) => a + r.baseline!, 0) / rs.length).toFixed(3)}` : "";
      lines.push(
        `| ${conv ?? "pooled"} | ${categoryLabel(category ? String(category) : "all")} | ${rs.length} | ${mean
          .map((x) => x.toFixed(3))
          .join(" | ")}${base} |`,
      );
    }
  return lines;
}

/**
 * Markdown: the point each held-out conversation got, and held-out recall per conversation and
 * category; with `baseline` (a grid point), its recall beside (R@10 at that point, in brackets).
 */
export function leaveOneOutMarkdown(
  rows: GridRow[],
  points: FusionWeights[],
  baseline?: number,
  measure: Objective = "blend",
): string {
  const chosen = chooseHeldOut(rows, points.length, measure);
  const lines = ["| held out | chosen on the others |", "| --- | --- |"];
  for (const [conv, p] of chosen) {
    const { dense, bm25, subject, time, dated, neighbour, question, length } = points[p]!;
    lines.push(
      `| ${conv} | ${JSON.stringify({ dense, bm25, subject, time, dated, neighbour, question, length })} |`,
    );
  }
  // The point every conversation together chooses: what ships; the table below says how such a
  // choice does on a conversation it did not see.
  let all = 0;
  for (let p = 1; p < points.length; p++)
    if (objective(rows, p, measure) > objective(rows, all, measure) + 1e-12) all = p;
  {
    const { dense, bm25, subject, time, dated, neighbour, question, length } = points[all]!;
    lines.push(
      `| (all, to ship) | ${JSON.stringify({ dense, bm25, subject, time, dated, neighbour, question, length })} |`,
    );
  }
  const scored = rows.map((r) => ({
    conv: r.conv,
    category: r.category,
    recall: r.recall[chosen.get(r.conv)!]!,
    ...(baseline === undefined ? {} : { baseline: r.recall[baseline]![LOO_KS.indexOf(10)]! }),
  }));
  lines.push(
    "",
    ...recallByConversation(
      scored,
      [...chosen.keys()],
      baseline === undefined ? undefined : "R@10 at the baseline",
    ),
  );
  return lines.join("\n");
}

async function main(files: string[], name: GridName): Promise<void> {
  const { resolveEmbedder } = await import("../../../src/engine/config.js");
  const { CachedEmbedder } = await import("../../../src/models/cached-embedder.js");
  const embedder = new CachedEmbedder(resolveEmbedder(undefined));
  const points = grid(name);
  const samples: LocomoSample[] = [];
  for (const file of files) samples.push(...readLocomo(JSON.parse(await readFile(file, "utf8"))));
  const rows = await gridRows(samples, embedder, points, (s) => process.stderr.write(`${s}\n`));
  // `shape` was chosen on R@10 alone, the measure its issue sets targets in.
  const shape = name === "shape";
  process.stdout.write(
    `${leaveOneOutMarkdown(rows, points, shape ? 0 : undefined, shape ? "r10" : "blend")}\n`,
  );
  await embedder.close?.();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [files, name = "dated"] = process.argv.slice(2);
  if (!files || (name !== "dated" && name !== "fusion" && name !== "shape")) {
    process.stderr.write("usage: leave-one-out.ts <locomo.json>[,<locomo.json>…] [dated|fusion|shape]\n");
    process.exitCode = 2;
  } else await main(files.split(","), name);
}
