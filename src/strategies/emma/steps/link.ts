/**
 * Step `emma.link`: EMMA's memory connection. The session's new memories are numbered together
 * with the older ones they might relate to, and related pairs are named as numbered pairs: two
 * memories are related when they concern the same situation or one updates the other, whoever
 * they are about. Pairs already linked are listed so they are not named again. The chain rule
 * (an update links to the newer end of a linked pair) is applied by the strategy, for both engines.
 *
 * Offline, each candidate pair is judged related or not by `judge` (see LinkJudge; default the
 * cosine of the two memories' gists, chosen on the tune pairs) against its threshold.
 */
import { z } from "zod";
import { chooseModel } from "../../../cognition/offline/learned/choose.js";
import { linkRow, shippedLinkModel } from "../../../cognition/offline/learned/link-model.js";
import { predictProba, topLabels } from "../../../cognition/offline/learned/logistic.js";
import { pairSides } from "../../../cognition/offline/learned/pair-model.js";
import { gist, relateOffline } from "../../../cognition/offline/relation-linker.js";
import { defineStep, type OfflineKit, type StepBatching } from "../../../cognition/step.js";
import { formatDay } from "../../../core/time.js";
import { cosine } from "../../../core/vector.js";

/**
 * Least relatedness for an offline link, per judge: chosen on the tune part of
 * lab/data/emma/links.jsonl (`npm run lab -- eval emma-links --part tune --choose`), best accuracy on a 0.05
 * grid. Not on memory-ops' dev part: the shipped linker was trained there and scores it perfectly.
 */
export const RELATED_THRESHOLDS = { learned: 0.85, rules: 0.5, cosine: 0.35 } as const;

type Side = Pick<LinkableMemory, "text" | "about" | "at">;

/**
 * How the offline engine judges a pair: `learned` the Theanine linker's probability of any
 * relation (falls back to the rules for an encoder it was not trained with), `rules` its
 * hand-written rules (0 or 1), `cosine` the similarity of the two memories without names or dates.
 */
export type LinkJudge = "learned" | "rules" | "cosine";
export const LINK_JUDGES: LinkJudge[] = ["learned", "rules", "cosine"];
/** The judge chosen on the tune pairs (cosine 83 % accuracy there; learned 63 %, rules 67 %). */
export const DEFAULT_JUDGE: LinkJudge = "cosine";

/**
 * How related each pair of memories is, 0 to 1, with a reason, by `judge`: `cosine` the
 * similarity of their gists; `learned` the Theanine linker's probability that the pair is
 * anything but None (the rules when the model does not fit the encoder); `rules` the rule
 * linker's verdict (1 or 0). The pair's names are read out of the gists ("about" both people).
 */
export async function relatedness(
  pairs: [Side, Side][],
  kit: OfflineKit,
  judge: LinkJudge = DEFAULT_JUDGE,
): Promise<{ score: number; why: string }[]> {
  if (pairs.length === 0) return [];
  const aboutOf = (x: { about: string }, y: { about: string }) => [...new Set([x.about, y.about])].join(", ");
  const ordered = pairs.map(([x, y]): [Side, Side] => (x.at <= y.at ? [x, y] : [y, x]));
  const model =
    judge === "learned" ? chooseModel(kit.models?.relationLinker, shippedLinkModel, kit.embedder) : null;
  if (model) {
    const out: { score: number; why: string }[] = [];
    // Sides are read per pair of names, as the linker reads each memory's gist without them.
    const byAbout = new Map<string, number[]>();
    ordered.forEach(([x, y], i) => {
      const about = aboutOf(x, y);
      byAbout.set(about, [...(byAbout.get(about) ?? []), i]);
    });
    for (const [about, indices] of byAbout) {
      const sides = await pairSides(
        indices.flatMap((i) => [ordered[i]![0].text, ordered[i]![1].text]),
        about,
        kit.embedder,
      );
      for (const i of indices) {
        const [older, newer] = ordered[i]!;
        const p = predictProba(
          model.model,
          linkRow(
            { ...sides.get(older.text)!, at: older.at },
            { ...sides.get(newer.text)!, at: newer.at },
            about,
          ),
        );
        const none = p[model.model.labels.indexOf("None")] ?? 0;
        out[i] = { score: 1 - none, why: `learned linker: ${topLabels(model.model.labels, p)}` };
      }
    }
    return out;
  }
  const texts = [
    ...new Set(ordered.flatMap(([x, y]) => [gist(x.text, aboutOf(x, y)), gist(y.text, aboutOf(x, y))])),
  ];
  const vectors = new Map((await kit.embedder.embed(texts)).map((v, i) => [texts[i]!, v]));
  return ordered.map(([older, newer]) => {
    const about = aboutOf(older, newer);
    const c = cosine(vectors.get(gist(older.text, about))!, vectors.get(gist(newer.text, about))!);
    if (judge === "cosine") return { score: Math.max(0, c), why: `cosine of the gists ${c.toFixed(2)}` };
    const d = relateOffline(older.text, newer.text, about, c);
    return { score: d.relation === "None" ? 0 : 1, why: `rule linker: ${d.relation}, ${d.rationale}` };
  });
}

/** One numbered memory: its text, who it is about (display name), when, and whether it is new. */
export interface LinkableMemory {
  text: string;
  about: string;
  at: string;
  fresh: boolean;
}

/** Two memories by their numbers in the list. */
export interface NumberedPair {
  a: number;
  b: number;
}

export interface EmmaLinkInput {
  memories: LinkableMemory[];
  /** The pairs the offline engine judges (each with at least one new memory). */
  candidates: NumberedPair[];
  /** Pairs already linked, shown so they are not named again. */
  known: NumberedPair[];
  /** Offline: how pairs are judged (default DEFAULT_JUDGE). */
  judge?: LinkJudge;
  /** Offline: least relatedness for a link (default: RELATED_THRESHOLDS of the judge). */
  minRelated?: number;
  /**
   * Each listed memory's number in the whole list, when this input is a part of it (a list too
   * long for the model's window is judged in parts); the answer's numbers are read through it.
   */
  origin?: number[];
}

/** A related pair, lower number first, with the reason given. */
export interface RelatedPair extends NumberedPair {
  why: string;
}

const pair = z.object({ a: z.number().int().min(0), b: z.number().int().min(0) });
const inputSchema = z.object({
  memories: z.array(
    z.object({
      text: z.string().min(1),
      about: z.string().min(1),
      at: z.string().min(1),
      fresh: z.boolean(),
    }),
  ),
  candidates: z.array(pair),
  known: z.array(pair),
  judge: z.enum(["learned", "rules", "cosine"]).optional(),
  minRelated: z.number().min(0).max(1).optional(),
  origin: z.array(z.number().int().min(0)).optional(),
});

function answerSchema(count: number) {
  const number = z
    .number()
    .int()
    .min(0)
    .max(Math.max(0, count - 1));
  return z.object({
    pairs: z.array(z.object({ a: number, b: number, why: z.string().max(300).default("") })),
  });
}

type Answer = z.infer<ReturnType<typeof answerSchema>>;

function messages(input: EmmaLinkInput) {
  const system = [
    "You connect the memories one person keeps about themselves and the people they talk with.",
    "Two memories are related when they are about the same situation, or when one is an update of what the other",
    "describes (a plan that happened, a problem that got worse or was solved, news passed on by someone else).",
    "Memories about different people may be related. Sharing a word or a topic in general is not enough.",
    "Name the related pairs by their numbers. Only pairs with at least one memory marked NEW; not the pairs already",
    "linked. When a new memory updates something already linked, pair it with the most recent memory of that link only.",
    'Answer with JSON only: {"pairs": [{"a": 0, "b": 3, "why": "short reason"}]}; an empty list when nothing is related.',
  ].join("\n");
  const list = input.memories
    .map((m, i) => `${i}. ${m.fresh ? "NEW " : ""}(${formatDay(m.at)}, about ${m.about}) ${m.text}`)
    .join("\n");
  const known = input.known.length ? input.known.map((p) => `${p.a}-${p.b}`).join(", ") : "none";
  return [
    { role: "system" as const, content: system },
    { role: "user" as const, content: `Memories:\n${list}\n\nAlready linked: ${known}` },
  ];
}

const keyOf = (p: NumberedPair) => `${Math.min(p.a, p.b)}-${Math.max(p.a, p.b)}`;

/** The answer's pairs that may be new links: distinct, not known, one memory at least new. */
export function admissiblePairs(pairs: RelatedPair[], input: EmmaLinkInput): RelatedPair[] {
  const known = new Set(input.known.map(keyOf));
  const seen = new Set<string>();
  const out: RelatedPair[] = [];
  for (const p of pairs) {
    const key = keyOf(p);
    if (p.a === p.b || known.has(key) || seen.has(key)) continue;
    if (!input.memories[p.a]?.fresh && !input.memories[p.b]?.fresh) continue;
    seen.add(key);
    out.push({ a: Math.min(p.a, p.b), b: Math.max(p.a, p.b), why: p.why });
  }
  return out;
}

/**
 * The part of `input` that judges the new memories `group`: them, every memory a candidate pair
 * joins to one of them (the other new memories, their nearest older ones), and the known links
 * among those, renumbered, with `origin` leading back to the whole list.
 */
function linkPart(input: EmmaLinkInput, group: number[]): EmmaLinkInput {
  const mine = new Set(group);
  const keep = new Set(group);
  for (const c of input.candidates) {
    if (mine.has(c.a)) keep.add(c.b);
    if (mine.has(c.b)) keep.add(c.a);
  }
  const kept = [...keep].sort((x, y) => x - y);
  const at = new Map(kept.map((n, i) => [n, i]));
  const within = (p: NumberedPair) => at.has(p.a) && at.has(p.b);
  const renumber = (p: NumberedPair) => ({ a: at.get(p.a)!, b: at.get(p.b)! });
  return {
    ...input,
    memories: kept.map((n) => input.memories[n]!),
    candidates: input.candidates.filter((c) => (mine.has(c.a) || mine.has(c.b)) && within(c)).map(renumber),
    known: input.known.filter(within).map(renumber),
    origin: kept.map((n) => input.origin?.[n] ?? n),
  };
}

/**
 * A list too long for the model's window is judged in parts, each holding some of the new
 * memories with what they may relate to; the pairs found are joined without repeats. A new
 * memory whose part is too large even alone is left unlinked.
 */
const linkBatching: StepBatching<EmmaLinkInput, RelatedPair[]> = {
  size: Number.POSITIVE_INFINITY,
  split(input, _size, budget) {
    const fresh = input.memories.flatMap((m, i) => (m.fresh ? [i] : []));
    if (!budget || fresh.length < 2 || budget.tokens(input) <= budget.maxTokens) return [input];
    const parts: EmmaLinkInput[] = [];
    let group: number[] = [];
    for (const f of fresh) {
      if (group.length > 0 && budget.tokens(linkPart(input, [...group, f])) > budget.maxTokens) {
        parts.push(linkPart(input, group));
        group = [];
      }
      group.push(f);
    }
    parts.push(linkPart(input, group));
    return parts;
  },
  join(values) {
    const seen = new Set<string>();
    return values
      .flat()
      .filter((p) => !seen.has(keyOf(p)) && seen.add(keyOf(p)))
      .sort((x, y) => x.a - y.a || x.b - y.b);
  },
  leftOut: () => [],
};

export const emmaLinkStep = defineStep<EmmaLinkInput, RelatedPair[], Answer>({
  name: "emma.link",
  // v2: a list too long for the model's window is judged in parts.
  version: 2,
  description: "the related pairs among a session's new memories and the older ones",
  input: inputSchema as unknown as z.ZodType<EmmaLinkInput>,
  output: (input) => answerSchema(input.memories.length),
  prompt: messages,
  decode: (answer, input) =>
    admissiblePairs(answer.pairs, input).map((p) => {
      const [a, b] = [input.origin?.[p.a] ?? p.a, input.origin?.[p.b] ?? p.b];
      return { a: Math.min(a, b), b: Math.max(a, b), why: p.why };
    }),
  batch: linkBatching,
  async offline(input, kit) {
    const pairs = admissiblePairs(
      input.candidates.map((c) => ({ ...c, why: "" })),
      input,
    );
    const judge = input.judge ?? DEFAULT_JUDGE;
    const scores = await relatedness(
      pairs.map((p) => [input.memories[p.a]!, input.memories[p.b]!]),
      kit,
      judge,
    );
    const least = input.minRelated ?? RELATED_THRESHOLDS[judge];
    return pairs
      .map((p, i) => ({ ...p, why: scores[i]!.why, score: scores[i]!.score }))
      .filter((p) => p.score >= least)
      .map(({ score, ...p }) => ({ ...p, why: `${p.why} (related ${score.toFixed(2)})` }))
      .sort((x, y) => x.a - y.a || x.b - y.b);
  },
});
