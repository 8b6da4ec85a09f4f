/**
 * Learns the hybrid turn ranker's fusion weights from questions with turn-level evidence, in
 * place of setting them by hand, and says how the learned weights do on conversations they were
 * not fitted on. The model is the scaled fusion itself (fusion.ts), a linear ranker over the
 * signals the retriever computes: dense and BM25 scaled by the question's best, subject, asked
 * time, dated, recency, the best neighbour's content score, and the turn's shape. Each question's
 * signals are read once per turn (one search that scores every turn); fitting then re-scores
 * those rows, with no search, by coordinate ascent on recall (Metzler and Croft's linear
 * ranker, trained on the measure itself). The report fits on all conversations but one and
 * scores the one left out, for each in turn; with `--test` the weights fitted on every dev
 * conversation are scored on other conversations.
 *
 *   node --import tsx lab/eval/recall/fit-fusion.ts DEV.json[,DEV.json…] [--test TEST.json[,…]] [--cache FILE]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { type LocomoSample, readLocomo } from "../../../src/engine/ingest/formats/locomo.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { FUSION_WEIGHTS, type FusionWeights } from "../../../src/retrieval/fusion.js";
import type { TurnIndex } from "../../../src/retrieval/turn-search.js";
import { blend, evidenceTurns, ingestedTurnIndex, LOO_KS, recallByConversation } from "./leave-one-out.js";

/** One conversation's turns and its questions' signals. */
export interface ConversationRows {
  conv: string;
  /** How many turns (each one document: turns long enough to be split in passages are refused). */
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
  /** 1 when the question names the turn's speaker, else 0. */
  subject: number[];
  /** 1 when the turn was said at a time the question asks about, else 0. */
  time: number[];
  /** 1 when the question asks when and the turn's words place something in time, else 0. */
  dated: number[];
  /** 0 (oldest) to 1 (newest), only for questions about the present; else 0. */
  recency: number[];
  /** 1 when the turn asks a question (the `question` weight's signal), else 0. */
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

/**
 * The weights the rows are read with: every fixed signal at 1, so each reads as present or not
 * whatever its shipped weight (a signal shipped at 0 would not show in a hit's explanation). The
 * content scores and neighbours do not depend on them.
 */
const READ_WEIGHTS: FusionWeights = {
  ...FUSION_WEIGHTS,
  subject: 1,
  time: 1,
  dated: 1,
  recency: 1,
  question: 1,
  length: 1,
};

/**
 * Reads every turn's signals for each question of categories 1-4 (one ingest per conversation).
 * They come from the hits' explanations, which are rounded to 4 decimals: `scores` under the
 * shipped weights gives the same recall as `eval recall` on LoCoMo dev, recall-dev and
 * recall-test, to the third decimal.
 * @throws {Error} a conversation has a turn long enough to be indexed as passages (not modelled).
 */
export async function readRows(
  samples: LocomoSample[],
  embedder: Embedder,
  onProgress?: (s: string) => void,
): Promise<ConversationRows[]> {
  const out: ConversationRows[] = [];
  for (const sample of samples) {
    onProgress?.(`${sample.sampleId}: ingesting`);
    out.push(await conversationRows(sample, await ingestedTurnIndex(sample, embedder)));
  }
  return out;
}

async function conversationRows(sample: LocomoSample, index: TurnIndex): Promise<ConversationRows> {
  const n = index.turns.length;
  const position = new Map(index.turns.map((t, i) => [t.id, i]));
  if (position.size !== n)
    throw new Error(
      `fit-fusion: ${sample.sampleId} has turns long enough to be indexed as passages; the fit models one document per turn`,
    );
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
    const hits = await index.search(q.question, { k: n, weights: READ_WEIGHTS });
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
      row.recency[d] = e.recency ?? 0;
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

/** Recall@LOO_KS of one question under `w` (ties broken by turn order, as the index breaks them). */
export function recallAt(c: ConversationRows, q: QuestionRows, w: TurnWeights): number[] {
  const s = scores(c, q, w);
  const order = Array.from({ length: c.turns }, (_, i) => i).sort((a, b) => s[b]! - s[a]! || a - b);
  const rank = new Map(order.slice(0, LOO_KS[LOO_KS.length - 1]).map((d, i) => [d, i]));
  return LOO_KS.map(
    (k) => q.gold.filter((g) => (rank.get(g) ?? Number.POSITIVE_INFINITY) < k).length / q.gold.length,
  );
}

/** The mean over the questions of leave-one-out's blend of recall (R@10 first). */
export function objective(convs: ConversationRows[], w: TurnWeights): number {
  let sum = 0;
  let count = 0;
  for (const c of convs)
    for (const q of c.questions) {
      sum += blend(recallAt(c, q, w));
      count++;
    }
  return count ? sum / count : 0;
}

/**
 * Coordinate ascent: each fitted weight in turn moves by steps of 0.4 down to 0.02, in the
 * direction that gains, for as long as it gains, the others held; rounds repeat until one gains
 * nothing, `rounds` at most. Weights stay at 0 or above, so a signal can leave the model.
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
export function fitMarkdown(
  convs: ConversationRows[],
  weightsOf: (conv: string) => TurnWeights,
  fitted = FITTED,
): string {
  const lines = ["| conversation | weights |", "| --- | --- |"];
  for (const c of convs)
    lines.push(`| ${c.conv} | ${fitted.map((k) => `${k} ${weightsOf(c.conv)[k].toFixed(2)}`).join(", ")} |`);
  // Each question is scored once, with its conversation's weights and with the shipped ones.
  const scored = convs.flatMap((c) =>
    c.questions.map((q) => ({
      conv: c.conv,
      category: q.category,
      recall: recallAt(c, q, weightsOf(c.conv)),
      baseline: recallAt(c, q, SHIPPED)[2]!,
    })),
  );
  lines.push(
    "",
    ...recallByConversation(
      scored,
      convs.map((c) => c.conv),
      "R@10 shipped",
    ),
  );
  return lines.join("\n");
}

/** Rows as a cache file keeps them: with the files they were read from, so a cache of other files is refused. */
interface CachedRows {
  files: string[];
  rows: ConversationRows[];
}

async function rowsOf(files: string[], cache: string | undefined): Promise<ConversationRows[]> {
  if (cache && existsSync(cache)) {
    let held: CachedRows;
    try {
      held = JSON.parse(readFileSync(cache, "utf8"));
    } catch {
      throw new UsageError(`${cache} is not a cache this script wrote; delete it or name another`);
    }
    if (JSON.stringify(held.files) !== JSON.stringify(files))
      throw new UsageError(`${cache} holds rows of ${held.files?.join(",")}, not of ${files.join(",")}`);
    process.stderr.write(`rows from ${cache}\n`);
    return held.rows;
  }
  const samples: LocomoSample[] = files.flatMap((file) => readLocomo(JSON.parse(readFileSync(file, "utf8"))));
  const { resolveEmbedder } = await import("../../../src/engine/config.js");
  const { CachedEmbedder } = await import("../../../src/models/cached-embedder.js");
  const embedder = new CachedEmbedder(resolveEmbedder(undefined));
  try {
    const rows = await readRows(samples, embedder, (s) => process.stderr.write(`${s}\n`));
    if (cache) writeFileSync(cache, JSON.stringify({ files, rows } satisfies CachedRows));
    return rows;
  } finally {
    await embedder.close?.();
  }
}

const USAGE = `usage: node --import tsx lab/eval/recall/fit-fusion.ts DEV.json[,DEV.json…] [--test TEST.json[,…]] [--cache FILE]
  DEV     LoCoMo-format files to fit on, comma-separated (each conversation is held out in turn)
  --test  files to score the weights fitted on every DEV conversation on
  --cache keeps the signals read from DEV in FILE (and from TEST in FILE.test), so a second run needs no ingest`;

/** A mistake in how the script was called: said in one line, with the usage. */
class UsageError extends Error {}

/** The dev files, test files and cache named by the arguments; throws UsageError on anything else. */
export function parseArgs(args: string[]): { dev: string[]; test: string[]; cache?: string } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--test" || a === "--cache") {
      const v = args[i + 1];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${a} needs a value`);
      flags[a] = v;
      i++;
    } else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  if (positional.length !== 1)
    throw new UsageError(
      positional.length ? "name the dev files once, comma-separated (no spaces)" : "name the dev files",
    );
  const list = (x: string | undefined) => (x ? x.split(",").filter(Boolean) : []);
  const dev = list(positional[0]);
  const test = list(flags["--test"]);
  return { dev, test, ...(flags["--cache"] ? { cache: flags["--cache"] } : {}) };
}

async function main(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { dev, test, cache } = parseArgs(args);
  // Every file is checked before the fit, which takes minutes.
  const missing = [...dev, ...test].filter((f) => !existsSync(f));
  if (missing.length) throw new UsageError(`no such file: ${missing.join(", ")}`);
  const convs = await rowsOf(dev, cache);
  const tested = test.length ? await rowsOf(test, cache && `${cache}.test`) : [];
  const held = leaveOneOut(convs);
  process.stdout.write(
    `## Leave one conversation out (fitted on the others)\n\n${fitMarkdown(convs, (c) => held.get(c)!)}\n`,
  );
  const all = fit(convs);
  process.stdout.write(
    `\nFitted on every dev conversation: ${FITTED.map((k) => `${k} ${all[k].toFixed(2)}`).join(", ")}\n`,
  );
  if (tested.length)
    process.stdout.write(
      `\n## Test conversations, with the weights fitted on every dev conversation\n\n${fitMarkdown(tested, () => all)}\n`,
    );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`fit-fusion: ${error.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`fit-fusion: ${(error as Error).message ?? error}\n`);
      process.exitCode = 1;
    }
  });
}
