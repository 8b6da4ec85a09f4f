/**
 * Retrieval-shaped APPEND pairs: the strangers the pair operator's relatedness gate learns from
 * (`fitPairModel` in train.ts; the operator itself learns from the labelled pairs only).
 *
 * Labelled episodes pair a summary sentence with memories chosen by the writer, and most of those
 * pairs are updates. At run time the operator compares each new sentence with the five closest
 * memories it can find, and most of those are about something else. A model trained only on the
 * writer's pairs has seldom seen an unrelated pair. It then finds updates everywhere (on
 * data/carecall/real-candidates: changes right 23–32 % of the time).
 *
 * So every training episode also gets the memories of other episodes closest to its summary
 * sentences, labelled APPEND with each of them. They come from episodes in another domain, so they
 * cannot be updates, and from episodes of the same style, so their phrasing matches. The other
 * episode's name is replaced by this episode's, as it would read in one partner's memory.
 */
import { gist } from "../../../src/cognition/offline/relation-linker.js";
import { cosine } from "../../../src/core/vector.js";
import type { Embedder } from "../../../src/models/embedder.js";
import type { CarecallExample } from "../carecall/dataset.js";

/**
 * The episodes with `perEpisode` foreign memories added to each (memory list and APPEND pairs).
 * Deterministic: closest first, ties in the order of `episodes`. Episodes without a domain get
 * none, because nothing says a memory of another episode cannot update theirs.
 */
export async function withForeignMemories(
  episodes: CarecallExample[],
  embedder: Embedder,
  perEpisode: number,
): Promise<CarecallExample[]> {
  if (perEpisode <= 0) return episodes;
  const out: CarecallExample[] = [];
  for (const e of episodes) {
    const pool = episodes.filter(
      (o) => o !== e && e.domain && o.domain && o.domain !== e.domain && o.style === e.style,
    );
    const candidates = [...new Set(pool.flatMap((o) => o.memory.map((m) => renamed(m, o, e))))].filter(
      (m) => !e.memory.includes(m),
    );
    if (!candidates.length || !e.summary.length) {
      out.push(e);
      continue;
    }
    const [summaries, memories] = await Promise.all([
      embedder.embed(e.summary.map((s) => gist(s, e.about))),
      embedder.embed(candidates.map((m) => gist(m, e.about))),
    ]);
    const closeness = memories.map((v) => Math.max(...summaries.map((s) => cosine(s, v))));
    const picked = candidates
      .map((text, i) => ({ text, closeness: closeness[i]!, i }))
      .sort((a, b) => b.closeness - a.closeness || a.i - b.i)
      .slice(0, perEpisode)
      .map((c) => c.text);
    out.push({
      ...e,
      memory: [...e.memory, ...picked],
      pairs: [
        ...(e.pairs ?? []),
        ...picked.flatMap((_, j) =>
          e.summary.map((_, s) => ({ m: e.memory.length + j, s, op: "APPEND" as const })),
        ),
      ],
    });
  }
  return out;
}

/** A memory of `from` as it would read about `to`'s partner (both named; unnamed styles as they are). */
function renamed(text: string, from: CarecallExample, to: CarecallExample): string {
  return from.named && to.named ? text.split(from.about).join(to.about) : text;
}
