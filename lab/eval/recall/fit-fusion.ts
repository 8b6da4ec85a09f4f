/**
 * Learns the hybrid turn ranker's fusion weights from questions with turn-level evidence, in
 * place of setting them by hand, and says how the learned weights do on conversations they were
 * not fitted on. The model is the scaled fusion itself (fusion.ts), a linear ranker over the
 * signals the retriever computes: dense and BM25 scaled by the question's best, subject, asked
 * time, dated, recency, the best neighbour's content score, and the turn's shape. Each question's
 * signals are read once per turn (one search that scores every turn); fitting then re-scores
 * those rows, with no search, by coordinate ascent on recall (Metzler and Croft's linear
 * ranker, trained on the measure itself). Fitting on six conversations and scoring the seventh,
 * for each in turn, is what the report shows; with `--test` the weights fitted on every `dev`
 * conversation are scored on conversations that never took part in any choice.
 *
 *   node --import tsx lab/eval/recall/fit-fusion.ts DEV.json[,DEV.json…] [--test TEST.json[,…]] [--cache FILE]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { type LocomoSample, readLocomo } from "../../../src/engine/formats/locomo.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { FUSION_WEIGHTS, type FusionWeights } from "../../../src/retrieval/fusion.js";
import type { TurnIndex } from "../../../src/retrieval/turn-search.js";
import { categoryLabel } from "./evaluate.js";
import { evidenceTurns, ingestedTurns } from "./leave-one-out.js";

/** One conversation's turns and its questions' signals. */
export interface ConversationRows {
  conv: string;
  turns: number;
  /** The turn before and after each turn in its session (-1: none). */
  prev: number[];
  next: number[];
  questions: QuestionRows[];
}

/** One question's signals, one column entry per turn of its conversation. */
export interface QuestionRows {
  category: number;
  /** The evidence turns, by position. */
  gold: number[];
  /** Dense similarity divided by the question's best (negative ones as 0). */
  dense: number[];
  /** BM25 divided by the question's best (0: no match). */
  bm25: number[];
  /** 1 when the signal fired, else 0. */
  subject: number[];
  time: number[];
  dated: number[];
  /** 0 (oldest) to 1 (newest), only for questions about the present; else 0. */
  recency: number[];
  asks: number[];
  /** ln(1 + the turn's length in characters). */
  logLength: number[];
}

/** Every weight of the turn fusion (source is for memories only). */
export type TurnWeights = Required<Omit<FusionWeights, "source">>;

/** The weights that ship, as the fit's starting point and the report's baseline. */
export const SHIPPED: TurnWeights = {
  dense: FUSION_WEIGHTS.dense,
  bm25: FUSION_WEIGHTS.bm25,
  subject: FUSION_WEIGHTS.subject,
  time: FUSION_WEIGHTS.time,
  dated: FUSION_WEIGHTS.dated,
  recency: FUSION_WEIGHTS.recency,
  neighbour: FUSION_WEIGHTS.neighbour,
  question: FUSION_WEIGHTS.question ?? 0,
  length: FUSION_WEIGHTS.length ?? 0,
};

/**
 * The weights the fit moves. Dense stays 1 (it sets the scale); recency only settles which of
 * two versions is current, which turn evidence does not measure.
 */
export const FITTED: (keyof TurnWeights)[] = [
  "bm25",
  "subject",
  "time",
  "dated",
  "neighbour",
  "question",
  "length",
];

export const KS = [1, 5, 10, 25];

/** Reads every turn's signals for each question of categories 1-4 (one ingest per conversation). */
export async function readRows(
  samples: LocomoSample[],
  embedder: Embedder,
  onProgress?: (s: string) => void,
): Promise<ConversationRows[]> {
  const out: ConversationRows[] = [];
  for (const sample of samples) {
    onProgress?.(`${sample.sampleId}: ingesting`);
    out.push(await conversationRows(sample, await ingestedTurns(sample, embedder)));
  }
  return out;
}

async function conversationRows(sample: LocomoSample, index: TurnIndex): Promise<ConversationRows> {
  const n = index.turns.length;
  const position = new Map(index.turns.map((t, i) => [t.id, i]));
  const prev: number[] = [];
  const next: number[] = [];
  const last = new Map<string, number>();
  for (const [i, t] of index.turns.entries()) {
    const before = last.get(t.sessionId) ?? -1;
    prev.push(before);
    next.push(-1);
    if (before >= 0) next[before] = i;
    last.set(t.sessionId, i);
  }
  const logLength = index.turns.map((t) => Math.log1p(t.text.length));
  const questions: QuestionRows[] = [];
  for (const q of sample.qa.filter((x) => x.category >= 1 && x.category <= 4)) {
    const gold = [...new Set(evidenceTurns(sample.sampleId, q, new Set(position.keys())))].map(
      (id) => position.get(id)!,
    );
    if (gold.length === 0) continue;
    // Every turn, so each signal is read for all of them (the hybrid scores every dense candidate).
    const hits = await index.search(q.question, { k: n });
    const column = () => new Array<number>(n).fill(0);
    const row: QuestionRows = {
      category: q.category,
      gold,
      dense: column(),
      bm25: column(),
      subject: column(),
      time: column(),
      dated: column(),
      recency: column(),
      asks: column(),
      logLength,
    };
    let bestDense = 1e-9;
    let bestBm25 = 1e-9;
    for (const { explanation: e } of hits) {
      bestDense = Math.max(bestDense, e.dense ?? 0);
      bestBm25 = Math.max(bestBm25, e.bm25 ?? 0);
    }
    for (const { id, explanation: e } of hits) {
      const d = position.get(id)!;
      row.dense[d] = Math.max(0, e.dense ?? 0) / bestDense;
      row.bm25[d] = (e.bm25 ?? 0) / bestBm25;
      row.subject[d] = e.subject ? 1 : 0;
      row.time[d] = e.time ? 1 : 0;
      row.dated[d] = e.dated ? 1 : 0;
      row.recency[d] = (e.recency ?? 0) / FUSION_WEIGHTS.recency;
      row.asks[d] = e.question ? 1 : 0;
    }
    questions.push(row);
  }
  return { conv: sample.sampleId, turns: n, prev, next, questions };
}

/** Each turn's fused score under `w`, as fusion.ts's fuseScaled computes it. */
export function scores(c: ConversationRows, q: QuestionRows, w: TurnWeights): Float64Array {
  const n = c.turns;
  const content = new Float64Array(n);
  for (let i = 0; i < n; i++) content[i] = w.dense * q.dense[i]! + w.bm25 * q.bm25[i]!;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = c.prev[i]!;
    const x = c.next[i]!;
    const near = Math.max(0, p >= 0 ? content[p]! : 0, x >= 0 ? content[x]! : 0);
    out[i] =
      content[i]! +
      w.subject * q.subject[i]! +
      w.time * q.time[i]! +
      w.dated * q.dated[i]! +
      w.recency * q.recency[i]! +
      w.neighbour * near -
      w.question * q.asks[i]! +
      w.length * q.logLength[i]!;
  }
  return out;
}

/** Recall@KS of one question under `w` (ties broken by turn order, as the index breaks them). */
export function recallAt(c: ConversationRows, q: QuestionRows, w: TurnWeights): number[] {
  const s = scores(c, q, w);
  const order = Array.from({ length: c.turns }, (_, i) => i).sort((a, b) => s[b]! - s[a]! || a - b);
  const rank = new Map(order.slice(0, KS[KS.length - 1]).map((d, i) => [d, i]));
  return KS.map(
    (k) => q.gold.filter((g) => (rank.get(g) ?? Number.POSITIVE_INFINITY) < k).length / q.gold.length,
  );
}

/** Mean R@10 + ½ R@25 + ¼ R@5 (R@10 first; the deeper and shallower ones break its ties). */
export function objective(convs: ConversationRows[], w: TurnWeights): number {
  let sum = 0;
  let count = 0;
  for (const c of convs)
    for (const q of c.questions) {
      const r = recallAt(c, q, w);
      sum += r[2]! + 0.5 * r[3]! + 0.25 * r[1]!;
      count++;
    }
  return count ? sum / count : 0;
}

/**
 * Coordinate ascent: each fitted weight in turn moves by steps of 0.4 down to 0.02, in the
 * direction that gains, for as long as it gains, the others held; rounds repeat until one gains
 * nothing. Weights stay at 0 or above, so a signal can leave the model.
 */
export function fit(
  convs: ConversationRows[],
  start: TurnWeights = SHIPPED,
  fitted = FITTED,
  rounds = 6,
): TurnWeights {
  let w = { ...start };
  let best = objective(convs, w);
  for (let round = 0; round < rounds; round++) {
    let moved = false;
    for (const key of fitted)
      for (const step of [0.4, 0.2, 0.1, 0.05, 0.02])
        for (const sign of [1, -1]) {
          for (;;) {
            const tried = { ...w, [key]: Math.max(0, w[key] + sign * step) };
            if (tried[key] === w[key]) break;
            const score = objective(convs, tried);
            if (score <= best + 1e-9) break;
            w = tried;
            best = score;
            moved = true;
          }
        }
    if (!moved) break;
  }
  return w;
}

/** The weights fitted with each conversation held out, on the others alone. */
export function leaveOneOut(convs: ConversationRows[], fitted = FITTED): Map<string, TurnWeights> {
  return new Map(
    convs.map((c) => [
      c.conv,
      fit(
        convs.filter((x) => x !== c),
        SHIPPED,
        fitted,
      ),
    ]),
  );
}

/**
 * Markdown: the weights each held-out conversation got, then recall per conversation and category,
 * each conversation scored with its own weights (`weightsOf`), beside the shipped weights' R@10.
 */
export function recallMarkdown(
  convs: ConversationRows[],
  weightsOf: (conv: string) => TurnWeights,
  fitted = FITTED,
): string {
  const lines = ["| conversation | weights |", "| --- | --- |"];
  for (const c of convs)
    lines.push(`| ${c.conv} | ${fitted.map((k) => `${k} ${weightsOf(c.conv)[k].toFixed(2)}`).join(", ")} |`);
  lines.push(
    "",
    `| conversation | category | questions | ${KS.map((k) => `R@${k}`).join(" | ")} | R@10 shipped |`,
    `| --- | --- | ---: |${KS.map(() => " ---: |").join("")} ---: |`,
  );
  for (const conv of [undefined, ...convs.map((c) => c.conv)])
    for (const category of [0, 1, 2, 3, 4]) {
      const sums = KS.map(() => 0);
      let shipped = 0;
      let count = 0;
      for (const c of convs) {
        if (conv && c.conv !== conv) continue;
        for (const q of c.questions) {
          if (category && q.category !== category) continue;
          for (const [i, r] of recallAt(c, q, weightsOf(c.conv)).entries()) sums[i]! += r;
          shipped += recallAt(c, q, SHIPPED)[2]!;
          count++;
        }
      }
      if (count === 0) continue;
      const cells = sums.map((s) => (s / count).toFixed(3)).join(" | ");
      lines.push(
        `| ${conv ?? "pooled"} | ${categoryLabel(category ? String(category) : "all")} | ${count} | ${cells} | ${(shipped / count).toFixed(3)} |`,
      );
    }
  return lines.join("\n");
}

async function rowsOf(files: string[], cache: string | undefined): Promise<ConversationRows[]> {
  if (cache && existsSync(cache)) return JSON.parse(readFileSync(cache, "utf8"));
  const { resolveEmbedder } = await import("../../../src/engine/config.js");
  const { CachedEmbedder } = await import("../../../src/models/cached-embedder.js");
  const embedder = new CachedEmbedder(resolveEmbedder(undefined));
  const samples: LocomoSample[] = [];
  for (const file of files) samples.push(...readLocomo(JSON.parse(await readFile(file, "utf8"))));
  const rows = await readRows(samples, embedder, (s) => process.stderr.write(`${s}\n`));
  await embedder.close?.();
  if (cache) writeFileSync(cache, JSON.stringify(rows));
  return rows;
}

const USAGE =
  "usage: fit-fusion.ts DEV.json[,DEV.json…] [--test TEST.json[,…]] [--cache FILE] (the cache keeps the dev rows; FILE.test the test rows)";

async function main(args: string[]): Promise<void> {
  const value = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const taken = new Set(["--test", "--cache"].map((f) => args.indexOf(f) + 1).filter((i) => i > 0));
  const dev = args.find((a, i) => !a.startsWith("--") && !taken.has(i));
  if (!dev || args.includes("--help")) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = dev ? 0 : 2;
    return;
  }
  const cache = value("--cache");
  const convs = await rowsOf(dev.split(","), cache);
  const held = leaveOneOut(convs);
  process.stdout.write(
    `## Leave one conversation out (fitted on the others)\n\n${recallMarkdown(convs, (c) => held.get(c)!)}\n`,
  );
  const all = fit(convs);
  process.stdout.write(
    `\nFitted on every dev conversation: ${FITTED.map((k) => `${k} ${all[k].toFixed(2)}`).join(", ")}\n`,
  );
  const test = value("--test");
  if (test) {
    const tested = await rowsOf(test.split(","), cache && `${cache}.test`);
    process.stdout.write(
      `\n## Test conversations, with the weights fitted on every dev conversation\n\n${recallMarkdown(tested, () => all)}\n`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  });
}
