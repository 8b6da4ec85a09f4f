/**
 * Memo retrieval without a language model. Each entry's "topic. summary" is scored against the
 * utterance by a hybrid of two signals that are absolute, so one threshold means the same thing
 * in every conversation (a fused rank score would not):
 *   - dense: cosine of the sentence vectors;
 *   - lexical: the share of the utterance's BM25 term weight (IDF over the listed entries) that
 *     the entry contains.
 * Entries scoring at least `threshold`, and at least `gate` × the best score, are chosen, best
 * first, at most `max`; none clearing the threshold is the none-of-the-others answer.
 */
import { cosine } from "../../core/vector.js";
import type { Embedder } from "../../models/embedder.js";
import { bm25Terms } from "../../retrieval/bm25-terms.js";
import type { ChooseTopicsValue, TopicOption } from "./memo-shapes.js";

export interface ChooserOptions {
  /** Least hybrid score an entry needs: below it for every entry means none of the others. */
  threshold?: number;
  /** Share of the best entry's score another entry needs to be chosen too. */
  gate?: number;
  /** Most entries chosen. */
  max?: number;
}

/**
 * Threshold and gate chosen on the tuning half of MT-Bench+ (27 conversations) with the bundled
 * encoder, at the writer's default cut, for the mean of the final questions' option F1 and the
 * share of new topics' first questions that choose nothing (`npm run lab -- eval mtbench-plus --tune`;
 * docs/lab.md). The cap of 4 is not tuned: a conjunction names two topics, each may span two
 * entries.
 */
export const CHOOSER_DEFAULTS: Required<ChooserOptions> = { threshold: 0.3, gate: 0, max: 4 };

/** Weight of the dense signal in the hybrid (the lexical one has the rest). */
const DENSE_WEIGHT = 0.5;

/** Each option's hybrid score against the query, by option number (none-of-the-others left out). */
export async function scoreOptions(
  query: string,
  options: TopicOption[],
  embedder: Embedder,
): Promise<Record<number, number>> {
  const entries = options.filter((o) => !o.none);
  if (entries.length === 0) return {};
  const texts = entries.map((o) => `${o.topic}. ${o.summary}`);
  const [q, ...vectors] = await embedder.embed([query, ...texts]);
  const docs = texts.map((t) => new Set(bm25Terms(t)));
  const queryTerms = [...new Set(bm25Terms(query))];
  const idf = (term: string) => {
    const df = docs.filter((d) => d.has(term)).length;
    return Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
  };
  const weights = queryTerms.map(idf);
  const total = weights.reduce((a, b) => a + b, 0);
  const scores: Record<number, number> = {};
  for (const [i, o] of entries.entries()) {
    const lexical =
      total > 0 ? queryTerms.reduce((s, t, j) => s + (docs[i]!.has(t) ? weights[j]! : 0), 0) / total : 0;
    scores[o.n] = DENSE_WEIGHT * cosine(q!, vectors[i]!) + (1 - DENSE_WEIGHT) * lexical;
  }
  return scores;
}

/** The options a threshold, gate and cap choose from scores (best first). */
export function chooseByScore(scores: Record<number, number>, options: ChooserOptions = {}): number[] {
  const { threshold, gate, max } = { ...CHOOSER_DEFAULTS, ...options };
  const ranked = Object.entries(scores)
    .map(([n, s]) => ({ n: Number(n), s }))
    .sort((a, b) => b.s - a.s || a.n - b.n);
  const best = ranked[0]?.s ?? 0;
  return ranked
    .filter((r) => r.s >= threshold && r.s >= gate * best)
    .slice(0, max)
    .map((r) => r.n);
}

export async function chooseOffline(
  query: string,
  options: TopicOption[],
  embedder: Embedder,
  chooser: ChooserOptions = {},
): Promise<ChooseTopicsValue> {
  const scores = await scoreOptions(query, options, embedder);
  const chosen = chooseByScore(scores, chooser);
  const none = options.find((o) => o.none);
  return { chosen, ignored: chosen.length === 0 && none ? [none.n] : [], scores };
}
