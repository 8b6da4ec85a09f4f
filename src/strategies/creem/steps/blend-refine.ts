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
 * typed by CareCall's pair operator against each retrieved memory of the same person: REPLACE,
 * DELETE or FUSION make it Updated, PASS Redundant, APPEND nothing (measured: `eval creem-typing`).
 */
import { z } from "zod";
import { classifyPair, commonTerms } from "../../../cognition/offline/pair-operator.js";
import { summarizeOffline } from "../../../cognition/offline/summarize.js";
import { defineStep } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import { formatDay } from "../../../core/time.js";
import type { Turn } from "../../../core/types.js";
import { cosine } from "../../../core/vector.js";
import { turnShape } from "../../kit/steps/shapes.js";

export const INSIGHT_TYPES = ["New", "Redundant", "Updated"] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

export interface RetrievedMemory {
  /** The number shown to the model, from 1. */
  n: number;
  about: string;
  text: string;
}

export interface BlendInput {
  agent: string;
  /** Everyone in the session (ids); insights are about one of them. */
  people: string[];
  at: string;
  sessionId: string;
  /** The last two utterances (or, batched, the last few), oldest first. */
  recent: Turn[];
  retrieved: RetrievedMemory[];
}

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
    `From the latest utterances, write at most ${MAX_INSIGHTS} insights worth remembering (none if nothing is worth it).`,
    ...(first
      ? ["There are no earlier memories yet: every insight is New and retires nothing."]
      : [
          "Blend them with the numbered earlier memories and type each insight:",
          "- New: unrelated to the earlier memories; retires nothing.",
          "- Redundant: overlaps earlier memories; write one insight that merges them, keeping every detail, and list them in removes.",
          "- Updated: the state in earlier memories has changed; state the new one and list the outdated memories in removes.",
          "removes holds only numbers of the memories shown.",
        ]),
    '"about" is the id of the person the insight is about.',
    'Answer with JSON only: {"insights": [{"about": "...", "text": "...", "type": "New", "removes": [], "why": "..."}]}',
  ].join("\n");
  const earlier = input.retrieved.map((m) => `(${m.n}) ${m.text}`).join("\n");
  const latest = input.recent.map((t) => `${displayName(t.speaker)}: ${t.text}`).join("\n");
  return [
    { role: "system" as const, content: system },
    {
      role: "user" as const,
      content: `People: ${people}\nDate: ${formatDay(input.at)}\n\nEarlier memories:\n${earlier || "(none)"}\n\nLatest utterances:\n${latest}`,
    },
  ];
}

export const blendRefineStep = defineStep<BlendInput, Insight[], Answer>({
  name: "creem.blend-refine",
  version: 1,
  description:
    "up to two insights from the latest utterances, typed New / Redundant / Updated against the retrieved memories",
  input: z.object({
    agent: z.string().min(1),
    people: z.array(z.string().min(1)).min(1),
    at: z.string().min(1),
    sessionId: z.string().min(1),
    recent: z.array(turnShape).min(1),
    retrieved: z.array(z.object({ n: z.number().int().min(1), about: z.string(), text: z.string() })),
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
    const chosen = [...statements]
      .sort((a, b) => Number(b.attributes?.salience ?? 0) - Number(a.attributes?.salience ?? 0))
      .slice(0, MAX_INSIGHTS);
    if (input.retrieved.length === 0)
      return chosen.map((s) => ({ about: s.about, text: s.text, type: "New" as const, removes: [] }));
    const texts = [...new Set([...chosen.map((s) => s.text), ...input.retrieved.map((m) => m.text)])];
    const vectors = new Map((await kit.embedder.embed(texts)).map((v, i) => [texts[i]!, v]));
    return chosen.map((s) => typeOffline(s, input.retrieved, vectors));
  },
});

/**
 * Types one insight against the retrieved memories about the same person with CareCall's pair
 * operator. Its labels map onto CREEM's types: PASS (the memory already holds the insight) and a
 * REPLACE or FUSION whose insight keeps every content word of the memory (it only adds detail)
 * are Redundant; any other REPLACE, FUSION or DELETE is Updated (the state changed); APPEND is
 * unrelated. A Redundant insight carries the merged text (the memory's, when it held everything).
 */
export function typeOffline(
  insight: { about: string; text: string },
  retrieved: RetrievedMemory[],
  vectors: Map<string, Float32Array>,
): Insight {
  const updated: number[] = [];
  const redundant: RetrievedMemory[] = [];
  let merged = insight.text;
  const name = displayName(insight.about);
  const mine = commonTerms(insight.text, name);
  for (const m of retrieved) {
    if (m.about !== insight.about) continue;
    const f = { cosine: cosine(vectors.get(m.text)!, vectors.get(insight.text)!) };
    const { label } = classifyPair(m.text, insight.text, name, f);
    const onlyAdds = [...commonTerms(m.text, name)].every((t) => mine.has(t));
    if (label === "PASS") {
      redundant.push(m);
      if (m.text.length > merged.length) merged = m.text;
    } else if ((label === "REPLACE" || label === "FUSION") && onlyAdds) redundant.push(m);
    else if (label === "REPLACE" || label === "DELETE" || label === "FUSION") updated.push(m.n);
  }
  if (updated.length)
    return {
      ...insight,
      type: "Updated",
      removes: updated,
      rationale: "the pair operator found a change of state",
    };
  if (redundant.length)
    return {
      about: insight.about,
      text: merged,
      type: "Redundant",
      removes: redundant.map((m) => m.n),
      rationale: "earlier memories hold this; merged, details kept",
    };
  return { ...insight, type: "New", removes: [], rationale: "no earlier memory holds this" };
}
