/**
 * Step `creem.blend-refine`: CREEM's Blend & Refine (§3, App. A.2-A.3). From the last two
 * utterances and the retrieved memories (numbered as shown), up to two insights, each typed:
 *   New        unrelated to the retrieved memories: added, nothing retired;
 *   Redundant  overlaps retrieved memories: the insight merges them (details kept), they retire;
 *   Updated    the state in retrieved memories changed: the insight states the new one, they retire.
 * A reference to a memory that was not shown, a third insight or an unknown type fails the schema
 * (repair, retry, then a failed operation). In the first session (nothing retrieved) insights
 * come from the dialogue alone, untyped (New).
 * Offline: insights from the offline summarizer over the two utterances (the two most salient),
 * typed against each retrieved memory of the same person by closeness (encoder, on gists) and
 * CareCall's pair operator, then by signals of a changed state (see `typeOffline`; measured with
 * `npm run lab -- eval creem-typing`).
 */

import { z } from "zod";
import { amounts, statesNewAmount, taggedNegative } from "../../../cognition/offline/frame.js";
import { decidePairsOffline } from "../../../cognition/offline/learned/decide-pairs.js";
import { classifyPair, commonTerms } from "../../../cognition/offline/pair-operator.js";
import { gist } from "../../../cognition/offline/relation-linker.js";
import { summarizeOffline } from "../../../cognition/offline/summarize.js";
import { updateRule } from "../../../cognition/offline/update-rules.js";
import { defineStep, type OfflineKit } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import type { PairLabelWithFusion } from "../../../core/memory-update.js";
import { isOwnReply } from "../../../core/own-reply.js";
import { formatDay } from "../../../core/time.js";
import type { Turn } from "../../../core/types.js";
import { cosine } from "../../../core/vector.js";
import { turnShape } from "../../kit/steps/shapes.js";
import { OWN_REPLY, ownReplyRule } from "../../kit/steps/summarize.js";

export const INSIGHT_TYPES = ["New", "Redundant", "Updated"] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

export interface RetrievedMemory {
  /** The number shown to the model, from 1. */
  n: number;
  about: string;
  text: string;
  /** When what it says was observed (shown as a date). */
  at?: string;
}

export interface BlendInput {
  agent: string;
  /** Everyone in the session (ids); insights are about one of them. */
  people: string[];
  at: string;
  sessionId: string;
  /** The last two utterances (or, batched, the last few), oldest first: insights come from these. */
  recent: Turn[];
  /**
   * The session's dialogue before `recent`, oldest first: the context the paper gives Blend &
   * Refine (the prompt shows its last DIALOGUE_CHARS characters).
   */
  dialogue?: Turn[];
  retrieved: RetrievedMemory[];
}

/** Characters of the earlier dialogue the prompt shows at most (its newest part). */
export const DIALOGUE_CHARS = 6000;

export interface Insight {
  about: string;
  text: string;
  type: InsightType;
  /** Numbers of the retrieved memories it retires (empty for New). */
  removes: number[];
  rationale?: string;
}

/** Most insights per turn (the paper's n = 2). */
export const MAX_INSIGHTS = 2;

function insightsSchema(input: BlendInput) {
  const count = input.retrieved.length;
  return z
    .object({
      insights: z
        .array(
          z.object({
            about: z.enum(input.people as [string, ...string[]]),
            text: z.string().min(3).max(400),
            type: z.enum(INSIGHT_TYPES),
            removes: z.array(z.number().int()).default([]),
            why: z.string().max(300).optional(),
          }),
        )
        .max(MAX_INSIGHTS, `at most ${MAX_INSIGHTS} insights`),
    })
    .superRefine((value, ctx) => {
      for (const [i, insight] of value.insights.entries()) {
        const bad = insight.removes.filter((n) => n < 1 || n > count);
        if (bad.length)
          ctx.addIssue({
            code: "custom",
            path: ["insights", i, "removes"],
            message: `memories ${bad.join(", ")} were not shown (use numbers 1 to ${count})`,
          });
        if (insight.type === "New" && insight.removes.length)
          ctx.addIssue({ code: "custom", path: ["insights", i], message: "a New insight retires nothing" });
        if (insight.type !== "New" && insight.removes.length === 0)
          ctx.addIssue({
            code: "custom",
            path: ["insights", i],
            message: `a ${insight.type} insight names the memories it retires`,
          });
      }
    });
}

type Answer = z.infer<ReturnType<typeof insightsSchema>>;

function messages(input: BlendInput) {
  const people = input.people.map((p) => `${p} (${displayName(p)})`).join(", ");
  const first = input.retrieved.length === 0;
  const system = [
    `You keep the long-term memory of ${displayName(input.agent)}: short third-person insights about the people they talk with.`,
    `Read the conversation so far, then write at most ${MAX_INSIGHTS} insights worth remembering from its latest utterances (none if nothing is worth it).`,
    ...(first
      ? ["There are no earlier memories yet: every insight is New and retires nothing."]
      : [
          "Blend them with the numbered earlier memories (each with its date and whom it is about) and type each insight:",
          "- New: unrelated to the earlier memories; retires nothing.",
          "- Redundant: overlaps earlier memories; write one insight that merges them, keeping every detail, and list them in removes.",
          "- Updated: the state in earlier memories has changed; state the new one and list the outdated memories in removes.",
          "removes holds only numbers of the memories shown.",
          "",
          "Two worked cases (other people, other facts):",
          '- Memory (1) [12 March 2024, about Lena] "Lena runs 5 km on weekends." Lena now says: "I signed up for a half marathon in June."',
          '  -> {"about": "lena", "text": "Lena runs on weekends and has signed up for a half marathon in June.", "type": "Redundant", "removes": [1]}',
          '- Memory (2) [3 January 2024, about Omar] "Omar works night shifts at the bakery." Omar now says: "I quit the bakery, I drive a bus now."',
          '  -> {"about": "omar", "text": "Omar left the bakery and now drives a bus.", "type": "Updated", "removes": [2]}',
        ]),
    ownReplyRule(input.agent),
    '"about" is the id of the person the insight is about.',
    'Answer with JSON only: {"insights": [{"about": "<id>", "text": "<insight>", "type": "<New | Redundant | Updated>", "removes": [<numbers>], "why": "<one short reason>"}]}',
  ].join("\n");
  const earlier = input.retrieved
    .map((m) => `(${m.n}) [${m.at ? `${formatDay(m.at)}, ` : ""}about ${displayName(m.about)}] ${m.text}`)
    .join("\n");
  const line = (t: Turn) =>
    `${displayName(t.speaker)}${isOwnReply(t, input.agent) ? OWN_REPLY : ""}: ${t.text}`;
  const before = shownDialogue(input.dialogue ?? [], line);
  const latest = input.recent.map(line).join("\n");
  return [
    { role: "system" as const, content: system },
    {
      role: "user" as const,
      content: `People: ${people}\nDate: ${formatDay(input.at)}\n\nEarlier memories:\n${earlier || "(none)"}\n\nThe conversation so far:\n${before || "(it starts here)"}\n\nLatest utterances (write the insights from these):\n${latest}`,
    },
  ];
}

/**
 * The newest turns whose texts fit DIALOGUE_CHARS together, oldest first: all of the earlier
 * dialogue the prompt can show (its lines add the speaker, so it never shows more).
 */
export function dialogueTail(turns: Turn[]): Turn[] {
  let used = 0;
  let from = turns.length;
  while (from > 0 && used + turns[from - 1]!.text.length <= DIALOGUE_CHARS)
    used += turns[--from]!.text.length;
  return turns.slice(from);
}

/** The newest lines of the earlier dialogue that fit DIALOGUE_CHARS, oldest first. */
function shownDialogue(turns: Turn[], line: (t: Turn) => string): string {
  const out: string[] = [];
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const l = line(turns[i]!);
    if (used + l.length > DIALOGUE_CHARS) break;
    out.push(l);
    used += l.length + 1;
  }
  return out.reverse().join("\n");
}

export const blendRefineStep = defineStep<BlendInput, Insight[], Answer>({
  name: "creem.blend-refine",
  // v2: the session's earlier dialogue, memory dates and subjects, worked cases, no answer to copy;
  // the agent's own replies, marked, count for what it says about itself.
  version: 2,
  description:
    "up to two insights from the latest utterances, typed New / Redundant / Updated against the retrieved memories",
  input: z.object({
    agent: z.string().min(1),
    people: z.array(z.string().min(1)).min(1),
    at: z.string().min(1),
    sessionId: z.string().min(1),
    recent: z.array(turnShape).min(1),
    dialogue: z.array(turnShape).optional(),
    retrieved: z.array(
      z.object({
        n: z.number().int().min(1),
        about: z.string(),
        text: z.string(),
        at: z.string().optional(),
      }),
    ),
  }) as unknown as z.ZodType<BlendInput>,
  output: insightsSchema,
  temperature: 0.7,
  prompt: messages,
  decode: (answer) =>
    answer.insights.map((i) => ({
      about: i.about,
      text: i.text.trim(),
      type: i.type,
      removes: [...new Set(i.removes)],
      rationale: i.why,
    })),
  async offline(input, kit) {
    const statements = await summarizeOffline(
      {
        agent: input.agent,
        partners: input.people.filter((p) => p !== input.agent),
        sessionId: input.sessionId,
        at: input.at,
        turns: input.recent,
      },
      kit.embedder,
    );
    // Of the paper's n per turn, those that end or change what a retrieved memory holds come
    // first ("sold the Laser" beside "keeps a Laser dinghy"), then the other half of their
    // sentence ("and bought a Wayfarer"), then the most salient: keeping memory current matters
    // more than one more new fact.
    const updates = (text: string, about: string) =>
      input.retrieved.some((m) => {
        if (m.about !== about) return false;
        const rule = updateRule(m.text, text, displayName(about))?.rule;
        return rule === "stop" || rule === "change";
      });
    const quoteOf = (st: (typeof statements)[number]) => st.attributes?.quote;
    const updating = statements.filter((st) => updates(st.text, st.about));
    const rank = new Map(
      statements.map((st) => [
        st,
        updating.includes(st)
          ? 2
          : updating.some((u) => quoteOf(u) !== undefined && quoteOf(u) === quoteOf(st))
            ? 1
            : 0,
      ]),
    );
    const chosen = [...statements]
      .sort(
        (a, b) =>
          rank.get(b)! - rank.get(a)! ||
          Number(b.attributes?.salience ?? 0) - Number(a.attributes?.salience ?? 0),
      )
      .slice(0, MAX_INSIGHTS);
    if (input.retrieved.length === 0)
      return chosen.map((s) => ({ about: s.about, text: s.text, type: "New" as const, removes: [] }));
    const vectors = await gistVectors(
      kit.embedder,
      [...chosen, ...input.retrieved].map((x) => ({ text: x.text, about: x.about })),
    );
    const typed: Insight[] = [];
    for (const s of chosen) typed.push(await typeInsightOffline(s, input.retrieved, vectors, kit));
    return typed;
  },
});

/**
 * Cosine (bundled encoder, on gists: names and dates out) from which a retrieved memory counts
 * as about the same thing as the insight. Chosen on the tune half of data/creem/typing.jsonl (odd
 * ids; 0.62 gave the best tune type accuracy, 75.3 %, among 0.62 / 0.7 / 0.75 / 0.8). Other
 * embedders may need another value.
 */
export const RELATED_COSINE = 0.62;

/** Adverbs that say a state changed ("now", "no longer"): a small, generic list, measured with the rest. */
const CHANGE_WORDS =
  /\b(?:now|anymore|any more|no longer|instead|used to|these days|switched|stopped|quit|finally)\b/i;

const negated = (text: string) => taggedNegative(text) || /n't\b|\bno longer\b|\bnever\b/i.test(text);

/**
 * Does the insight change the state the memory describes? CareCall's operator says so (REPLACE,
 * DELETE, FUSION), or one side is negated and the other not, or both give amounts and the insight
 * one the memory lacks (`statesNewAmount`, as CareCall's PASS guard reads them), or it carries an
 * adverb of change the memory lacks.
 */
function changes(memory: string, insight: string, label: string): boolean {
  if (label === "REPLACE" || label === "DELETE" || label === "FUSION") return true;
  if (negated(memory) !== negated(insight)) return true;
  // Amounts, not dates: an insight restating an old fact with the day it was told changes nothing.
  if (amounts(memory).length && statesNewAmount(memory, insight)) return true;
  return CHANGE_WORDS.test(insight) && !CHANGE_WORDS.test(memory);
}

/** `text`, followed by `memory` when the memory holds content words `text` lacks. */
function keepDetails(text: string, memory: string, name: string): string {
  const have = commonTerms(text, name);
  const missing = [...commonTerms(memory, name)].filter((t) => !have.has(t));
  if (missing.length === 0) return text;
  return `${text.replace(/[.!?\s]+$/, "")}; ${memory.replace(/[.!?\s]+$/, "")}.`;
}

/**
 * Types one insight against the retrieved memories about the same person. A memory is related
 * when the encoder puts it close (RELATED_COSINE) or CareCall's pair operator relates them (any
 * label but APPEND). Whether a related memory's state changed is read from `labels` (by memory
 * number: the operator's answers with its learned part) when given, else from its rules. Related
 * memories whose state the insight changes make it Updated (they retire); otherwise related memories make it Redundant (they retire into it; when the operator
 * says a memory already holds the insight, the memory's fuller text is kept); none: New.
 * Measured with `npm run lab -- eval creem-typing` (docs/lab.md).
 */
export function typeOffline(
  insight: { about: string; text: string },
  retrieved: RetrievedMemory[],
  vectors: Map<string, Float32Array>,
  labels?: ReadonlyMap<number, PairLabelWithFusion>,
): Insight {
  const updated: number[] = [];
  const redundant: number[] = [];
  let merged = insight.text;
  const name = displayName(insight.about);
  for (const m of retrieved) {
    if (m.about !== insight.about) continue;
    const c = cosine(vectors.get(m.text)!, vectors.get(insight.text)!);
    const { label } = classifyPair(m.text, insight.text, name, { cosine: c });
    if (c < RELATED_COSINE && label === "APPEND") continue;
    // The learned operator says only whether a related memory's state changed; which memories are
    // related stays with the encoder and the rules. Let it relate far pairs too and it retired
    // facts that still held (the currency set's tune half: stable 92.3 % to 69.2 %).
    if (changes(m.text, insight.text, labels?.get(m.n) ?? label)) updated.push(m.n);
    else {
      redundant.push(m.n);
      // Redundant merges keep every detail: what the retired memory says beyond the insight follows it.
      merged = label === "PASS" && m.text.length > merged.length ? m.text : keepDetails(merged, m.text, name);
    }
  }
  if (updated.length)
    return {
      ...insight,
      type: "Updated",
      removes: updated,
      rationale: "a related memory describes an earlier state",
    };
  if (redundant.length)
    return {
      about: insight.about,
      text: merged,
      type: "Redundant",
      removes: redundant,
      rationale: "related memories hold this; merged, details kept",
    };
  return { ...insight, type: "New", removes: [], rationale: "no retrieved memory is related" };
}

/**
 * `typeOffline` with CareCall's operator, its learned part included, reading each (memory,
 * insight) pair first: the offline step's typing.
 */
export async function typeInsightOffline(
  insight: { about: string; text: string },
  retrieved: RetrievedMemory[],
  vectors: Map<string, Float32Array>,
  kit: OfflineKit,
): Promise<Insight> {
  const mine = retrieved.filter((m) => m.about === insight.about);
  const decided = await decidePairsOffline(
    mine.map((m) => ({ memory: m.text, summary: insight.text })),
    displayName(insight.about),
    kit,
  );
  return typeOffline(insight, retrieved, vectors, new Map(mine.map((m, k) => [m.n, decided[k]!.label])));
}

/**
 * Vectors of the sentences' gists (names and dates taken out): every memory about one person
 * names them, which alone makes any two look alike to the encoder. Keyed by the sentence.
 */
export async function gistVectors(
  embedder: { embed(texts: string[]): Promise<Float32Array[]> },
  items: { text: string; about: string }[],
): Promise<Map<string, Float32Array>> {
  const unique = [...new Map(items.map((i) => [i.text, i])).values()];
  const vectors = await embedder.embed(unique.map((i) => gist(i.text, displayName(i.about))));
  return new Map(unique.map((i, n) => [i.text, vectors[n]!]));
}
