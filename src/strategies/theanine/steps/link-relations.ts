/**
 * Step `theanine.link-relations`: Theanine's relation-aware linking (Phase I-2). For each older ->
 * newer memory pair, one of Changed, Cause, Reason, HinderedBy, React, Want, SameTopic, or None;
 * all pairs of a session in a few batched calls, not one per memory. The model is shown, beside
 * each memory's text and date, the dialogue lines it was drawn from (the paper relates two
 * memories by their events, times and origin conversations).
 */
import { z } from "zod";
import type { MemoryPair, RelationDecision } from "../../../cognition/inputs.js";
import { chooseModel } from "../../../cognition/offline/learned/choose.js";
import { decideLink, linkRow, shippedLinkModel } from "../../../cognition/offline/learned/link-model.js";
import { pairSides } from "../../../cognition/offline/learned/pair-model.js";
import { gist, relateOffline } from "../../../cognition/offline/relation-linker.js";
import { batchItems, defineStep } from "../../../cognition/step.js";
import {
  RELATION_MEANINGS,
  RELATIONS,
  RELATIONS_OR_NONE,
  type RelationOrNone,
} from "../../../core/relations.js";
import { formatDay } from "../../../core/time.js";
import { cosine } from "../../../core/vector.js";
import { DECISIONS_FORMAT, type Decisions, decisionsSchema, inPairOrder } from "../../kit/steps/decisions.js";

/** A memory of a pair: its text and date, and the dialogue lines it comes from ("Name: text"). */
export interface LinkedMemory {
  /** The memory's id: not shown to the model; kept so a pair answered later can be linked. */
  id?: string;
  text: string;
  at: string;
  /** The memory's source turns, oldest first; optional so callers without turns still fit. */
  source?: string[];
}

/** An older -> newer pair; a MemoryPair whose memories may carry their source turns. */
export interface LinkPair extends MemoryPair {
  older: LinkedMemory;
  newer: LinkedMemory;
}

export interface LinkRelationsInput {
  about: string;
  pairs: LinkPair[];
}

const dated = z.object({ text: z.string(), at: z.string(), source: z.array(z.string()).optional() });

/** Source lines shown per memory, and characters per line: a batch of 40 pairs stays readable. */
const SOURCE_LINES = 3;
const SOURCE_CHARS = 240;

function said(label: string, source: string[] | undefined): string {
  if (!source?.length) return "";
  const lines = source
    .slice(0, SOURCE_LINES)
    .map((l) => l.replace(/\s+/g, " "))
    .map((l) => (l.length > SOURCE_CHARS ? `${l.slice(0, SOURCE_CHARS - 1)}…` : l));
  return `\n   ${label} was said in: ${lines.map((l) => `"${l}"`).join(" / ")}`;
}

function messages(input: LinkRelationsInput) {
  const meanings = RELATIONS.map((r) => `- ${r}: ${RELATION_MEANINGS[r]}`).join("\n");
  return [
    {
      role: "system" as const,
      content: [
        `You organise the memories about ${input.about} into a graph of how events developed.`,
        "Each pair has an older memory A and a newer memory B with their dates and, where known, the lines of",
        "conversation each was drawn from; read those lines to see what really happened. Name the relation from A to B:",
        meanings,
        "- None: they only share words; there is no real connection.",
        `Label each pair with the relation. Answer with JSON only: ${DECISIONS_FORMAT}.`,
      ].join("\n"),
    },
    { role: "user" as const, content: input.pairs.map((p, i) => shownPair(p, i)).join("\n") },
  ];
}

/** One pair as the prompt shows it. */
function shownPair(p: LinkPair, i: number): string {
  return (
    `${i}. A (${formatDay(p.older.at)}): ${p.older.text}\n   B (${formatDay(p.newer.at)}): ${p.newer.text}` +
    said("A", p.older.source) +
    said("B", p.newer.source)
  );
}

/**
 * Characters of pairs in one call: about 4,000 tokens, so that the instructions, the pairs and the
 * answer (a decision and a reason per pair) fit a model with an 8K context. Forty pairs with their
 * source lines had reached about 65,000 characters.
 */
export const LINK_BATCH_CHARS = 16_000;

export const linkRelationsStep = defineStep<LinkRelationsInput, RelationDecision[], Decisions>({
  name: "theanine.link-relations",
  // v2: each memory may carry its source turns, and the prompt shows them.
  // v3: offline, the learned linker (data/models/relation-linker.json) when it fits the encoder.
  // v4: the answer format states the reason's limit and asks for every pair by its number.
  // v5: pairs numbered from 1 are read; a pair that never fits is left unlinked (None) and recorded.
  version: 5,
  description: "the relation (or None) from an older memory to a newer one, for each pair",
  input: z.object({ about: z.string(), pairs: z.array(z.object({ older: dated, newer: dated })) }),
  output: (i) => decisionsSchema(RELATIONS_OR_NONE, i.pairs.length) as z.ZodType<Decisions>,
  prompt: messages,
  decode: (answer) =>
    inPairOrder(answer).map((d) => ({ relation: d.label as RelationOrNone, rationale: d.why })),
  // A pair too large for the model's window alone is not linked.
  batch: batchItems<LinkRelationsInput, "pairs", RelationDecision>(
    "pairs",
    40,
    { maxChars: LINK_BATCH_CHARS, chars: (p) => shownPair(p, 99).length + 1 },
    () => ({ relation: "None", rationale: "left out: too large for the model's window" }),
  ),
  // None links nothing: both memories stay, and the pair waits for `retry`.
  fallback: {
    what: "not linked (None)",
    value: (i) =>
      i.pairs.map(() => ({
        relation: "None" as const,
        rationale: "not decided: the model's answer never fit",
      })),
  },
  async offline(input, kit) {
    const model = chooseModel(kit.models?.relationLinker, shippedLinkModel, kit.embedder);
    if (model) {
      const sides = await pairSides(
        input.pairs.flatMap((p) => [p.older.text, p.newer.text]),
        input.about,
        kit.embedder,
      );
      return input.pairs.map((p) =>
        decideLink(
          model,
          linkRow(
            { ...sides.get(p.older.text)!, at: p.older.at },
            { ...sides.get(p.newer.text)!, at: p.newer.at },
            input.about,
          ),
        ),
      );
    }
    const texts = [...new Set(input.pairs.flatMap((p) => [p.older.text, p.newer.text]))];
    const vectors = new Map(
      (await kit.embedder.embed(texts.map((t) => gist(t, input.about)))).map((v, i) => [texts[i]!, v]),
    );
    return input.pairs.map((p) =>
      relateOffline(
        p.older.text,
        p.newer.text,
        input.about,
        cosine(vectors.get(p.older.text)!, vectors.get(p.newer.text)!),
      ),
    );
  },
});
