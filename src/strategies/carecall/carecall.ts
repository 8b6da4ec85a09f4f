/**
 * Strategy `carecall` (Bae et al. 2022, "Keep Me Updated!"). At session end the summarizer
 * writes short statements; each is compared with the stored memory about the same subject by the
 * pairwise operator (PASS / REPLACE / APPEND / DELETE, plus our FUSION), and Algorithm 1 decides
 * the next memory. Beyond the paper: by default only the five most similar memories of each
 * statement are classified (the rest are APPEND: taken as unrelated), in batched model calls;
 * `candidates: "all"` classifies every (memory, statement) pair of a subject, as the paper does.
 * Nothing is erased — removed memories are superseded and linked. Recall is top-k (k = 5).
 */
import type { PairDecision, SentencePair } from "../../cognition/inputs.js";
import { deniesStop, statesStop, updateRule } from "../../cognition/offline/update-rules.js";
import { InvalidInputError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { byStoreOrder } from "../../core/memory-order.js";
import { type PairLabelWithFusion, updateMemory } from "../../core/memory-update.js";
import type { Memory, Statement } from "../../core/types.js";
import { composeReply } from "../kit/compose-reply.js";
import { heardInSession, nearestMemories } from "../kit/memory-vectors.js";
import { withWarnings } from "../kit/step-warnings.js";
import { summarizeSession } from "../kit/summarize-session.js";
import { topKRecall } from "../kit/top-k-recall.js";
import {
  type RetriedStep,
  type SessionContext,
  type StandingOption,
  type Strategy,
  standingSetting,
} from "../strategy.js";
import { planUpdate } from "./plan-update.js";
import { classifyPairsStep } from "./steps/classify-pairs.js";
import { fuseStep } from "./steps/fuse.js";

/** The strategy's name, and the `strategy` of every memory it writes. */
const NAME = "carecall";

export interface CarecallOptions extends StandingOption {
  /** Memories recalled for a reply (the paper's k = 5). */
  k?: number;
  /**
   * Which memories each summary sentence is compared with: `"top5"` (default) the five most
   * similar at or above `minCosine`; `"all"` every memory about the same subject, no floor (the
   * paper's O(m, s) over all pairs; costs |M| x |S| operator decisions); a number, that many most
   * similar.
   */
  candidates?: CarecallCandidates;
  /** Least cosine for a memory to be compared at all (not used with `candidates: "all"`). */
  minCosine?: number;
  /** Allow the FUSION operation. */
  fusion?: boolean;
}

/** Which memories a summary sentence is compared with; see CarecallOptions.candidates. */
export type CarecallCandidates = "top5" | "all" | number;

/** The options, checked and with their defaults. */
interface CarecallSettings {
  /** How many memories each statement is compared with (infinite with `candidates: "all"`). */
  candidates: number;
  all: boolean;
  minCosine: number;
  fusion: boolean;
  k?: number;
}

export function carecallStrategy(options: CarecallOptions = {}): Strategy {
  const settings = carecallSettings(options);
  return {
    specificationVersion: "v1",
    ...standingSetting(options),
    name: NAME,
    description:
      "session summaries kept current by PASS / REPLACE / APPEND / DELETE (+ FUSION); top-5 recall",
    onSessionEnd: (ctx) => endSession(ctx, settings),
    onRetried: (ctx, answered) => applyAnswered(ctx, answered),
    recall: (ctx) => topKRecall(NAME, ctx, settings.k),
    compose: (ctx, recall) => composeReply(ctx, recall),
  };
}

/** @throws {InvalidInputError} candidates that are not "top5", "all" or a positive whole number */
function carecallSettings(options: CarecallOptions): CarecallSettings {
  const choice = options.candidates ?? "top5";
  const all = choice === "all";
  const candidates = choice === "all" ? Number.POSITIVE_INFINITY : choice === "top5" ? 5 : choice;
  if (!all && !(Number.isInteger(candidates) && candidates > 0))
    throw new InvalidInputError(`carecall candidates must be "top5", "all" or a positive whole number`, {
      field: "candidates",
    });
  return {
    candidates,
    all,
    minCosine: all ? Number.NEGATIVE_INFINITY : (options.minCosine ?? 0.3),
    fusion: options.fusion ?? true,
    k: options.k,
  };
}

/** Session end: the summary's statements, then each subject's memory updated by Algorithm 1. */
async function endSession(ctx: SessionContext, settings: CarecallSettings): Promise<void> {
  const { statements } = await summarizeSession(ctx);
  const subjects = [...new Set(statements.map((s) => s.about))];
  for (const about of subjects)
    await updateSubject(
      ctx,
      settings,
      about,
      statements.filter((s) => s.about === about),
    );
}

/**
 * The decision an obvious rule makes on a (memory, statement) pair, given the operator's, or null
 * when no rule applies. The same fact is passed (the memory keeps it, with the new evidence), or,
 * said whole within more words, replaces the memory (which is kept as its past); a
 * stop replaces the habit with the statement, which stays active; a change replaces the memory,
 * or is fused with it when the operator fused them (the old state is then kept as the fused
 * sentence's past); an addition never replaces, deletes or passes: both stay, or are fused when
 * the operator fused them.
 */
export function ruledPair(
  memory: string,
  statement: string,
  about: string,
  operator?: PairLabelWithFusion,
): PairDecision | null {
  const rule = updateRule(memory, statement, displayName(about));
  if (!rule) return null;
  const label: PairLabelWithFusion =
    rule.rule === "same"
      ? rule.fuller
        ? "REPLACE"
        : "PASS"
      : rule.rule === "stop"
        ? "REPLACE"
        : rule.rule === "change"
          ? operator === "FUSION"
            ? "FUSION"
            : "REPLACE"
          : operator === "FUSION"
            ? "FUSION"
            : "APPEND";
  return { label, rationale: rule.why, rule: rule.rule };
}

/**
 * Pairs kept apart because their decision never fitted (both sentences stayed, as APPEND), decided
 * on retry: REPLACE retires the memory for the sentence, PASS the sentence for the memory, DELETE
 * both; when both are still current. FUSION and APPEND change nothing here (a fusion is left to
 * the next session that meets the pair); the decision stays on the retried operation.
 */
async function applyAnswered(ctx: SessionContext, answered: RetriedStep): Promise<void> {
  if (answered.step !== classifyPairsStep.name) return;
  const { pairs } = answered.input as { pairs: SentencePair[] };
  const decisions = answered.value as PairDecision[];
  const own = await ctx.store.listMemories(ctx.scope, { sessionId: ctx.session.id, strategy: NAME });
  const retired = new Set<string>();
  for (const [i, pair] of pairs.entries()) {
    const label = decisions[i]?.label;
    if (!pair.memoryId || (label !== "REPLACE" && label !== "PASS" && label !== "DELETE")) continue;
    const [memory] = await ctx.store.listMemories(ctx.scope, { ids: [pair.memoryId] });
    const sentence = own.find((m) => m.text === pair.summary && m.status === "active");
    if (!memory || memory.status !== "active" || !sentence) continue;
    if (retired.has(memory.id) || retired.has(sentence.id)) continue;
    const supersede =
      label === "REPLACE"
        ? [{ oldId: memory.id, byId: sentence.id, at: ctx.session.at, reason: label }]
        : label === "PASS"
          ? [{ oldId: sentence.id, byId: memory.id, at: ctx.session.at, reason: label }]
          : [
              { oldId: memory.id, byId: sentence.id, at: ctx.session.at, reason: label },
              { oldId: sentence.id, byId: null, at: ctx.session.at, reason: label },
            ];
    for (const x of supersede) retired.add(x.oldId);
    ctx.stage({
      supersede,
      operations: [
        ctx.operation({
          type: label,
          memoryIds: [memory.id, sentence.id],
          inputs: { memory: memory.text, summary: sentence.text },
          outputs: { kept: label === "PASS" ? memory.id : label === "REPLACE" ? sentence.id : null },
          rationale: `decided on retry: ${decisions[i]!.rationale ?? ""}`.trim(),
        }),
      ],
    });
  }
}

/** Memories the rules read per statement, at least (the operator is shown `candidates` of them). */
const RULE_CANDIDATES = 10;

/** A memory compared with a statement, by their places in `memories` and `statements`. */
interface Pair {
  m: number;
  s: number;
}

async function updateSubject(
  ctx: SessionContext,
  settings: CarecallSettings,
  about: string,
  statements: Statement[],
): Promise<void> {
  // Its own memories only: another strategy's in the same scope (standing items, a session run
  // with theanine) are not statements for the operator to replace or keep.
  const texts = statements.map((s) => s.text);
  const sVectors = await ctx.embedder.embed(texts, { signal: ctx.signal });
  // The rules read a few more memories than the operator is shown, with no similarity floor: a
  // change or a stop often shares one word with what it ends ("moved from lodz" beside "Live in
  // lodz") and little else.
  const wide = settings.all ? settings.candidates : Math.max(settings.candidates, RULE_CANDIDATES);
  const heard = heardInSession(ctx.session);
  const near = await nearestMemories(ctx, sVectors, wide, { about, strategy: NAME });
  const shown = near.lists.map((list) =>
    settings.all ? list : list.filter((x, i) => i < settings.candidates && x.score >= settings.minCosine),
  );
  const ruledOnly = near.lists.map((list, s) =>
    list
      .filter((x) => !shown[s]!.includes(x))
      .flatMap((x) => {
        const rule = ruledPair(x.memory.text, texts[s]!, about);
        return rule && (rule.rule !== "same" || heard(x.memory)) ? [{ memory: x.memory, rule }] : [];
      }),
  );
  // Algorithm 1 runs over the memories some statement is compared with (in the store's order):
  // every other memory would take APPEND with every statement, which keeps it and changes nothing.
  const memories = [
    ...new Map(
      [...shown.flat().map((x) => x.memory), ...ruledOnly.flat().map((x) => x.memory)].map((m) => [m.id, m]),
    ).values(),
  ].sort(byStoreOrder);
  const number = new Map(memories.map((m, i) => [m.id, i]));
  const pairs: Pair[] = [];
  shown.forEach((list, s) => {
    for (const x of list) pairs.push({ m: number.get(x.memory.id)!, s });
  });
  const classified =
    pairs.length > 0
      ? await classifyPairs(ctx, settings, { about, statements, memories, pairs, among: near.among })
      : { decisions: new Map<string, PairDecision>(), model: ctx.cognition.name };
  // The obvious rules (a fact said again, an addition, a change, a stop) overrule the operator
  // on the pairs they decide; it decides the rest. Every pair is still shown to the operator, so
  // its decisions on the others do not depend on which pairs a rule took.
  const decisions = new Map(classified.decisions);
  for (const { m, s } of pairs) {
    const rule = ruledPair(memories[m]!.text, texts[s]!, about, decisions.get(`${m}:${s}`)?.label);
    if (rule && (rule.rule !== "same" || heard(memories[m]!))) decisions.set(`${m}:${s}`, rule);
  }
  ruledOnly.forEach((list, s) => {
    for (const { memory, rule } of list) decisions.set(`${number.get(memory.id)!}:${s}`, rule);
  });
  const model = classified.model;
  // A statement a rule kept (a stop, a change, an addition), or one that tells of a stop, is not
  // dropped by the operator's DELETE of another memory: the rules decided its fate, and a stop is
  // remembered. The DELETE still retires the memory it judged finished (as REPLACE).
  const kept = new Set(
    [...decisions].flatMap(([key, d]) =>
      d.rule && (d.rule !== "same" || d.label === "REPLACE") ? [Number(key.split(":")[1])] : [],
    ),
  );
  const stops = texts.map((t) => statesStop(t, displayName(about)));
  const denials = texts.map((t) => deniesStop(t, displayName(about)));
  for (const [key, d] of decisions) {
    const s = Number(key.split(":")[1]);
    if (d.label === "DELETE" && denials[s]) {
      // "won't stop staring" says a state goes on: it closes nothing, and both stay.
      decisions.set(key, {
        ...d,
        label: "APPEND",
        rationale:
          `${d.rationale ?? ""} (the operator's DELETE, taken as APPEND: the statement denies a stop)`.trim(),
      });
      continue;
    }
    if (d.label !== "DELETE" || !(kept.has(s) || stops[s])) continue;
    const why = kept.has(s)
      ? "a rule kept the statement"
      : "the statement tells of a stop, which is remembered";
    decisions.set(key, {
      ...d,
      label: "REPLACE",
      rationale: `${d.rationale ?? ""} (the operator's DELETE, taken as REPLACE: ${why})`.trim(),
    });
  }
  // Conversation time decides what is current: a statement older than a memory (a late file,
  // a retried old session) never replaces, deletes or fuses it; it is kept as that memory's
  // past instead (history behind it).
  const behind = new Map<number, number>();
  const label = (m: number, s: number): PairLabelWithFusion => {
    const l = decisions.get(`${m}:${s}`)?.label ?? "APPEND";
    // Passing over a memory the speaker cannot hear would leave their statement nowhere they can.
    if (l === "PASS" && !heard(memories[m]!)) return "APPEND";
    if (l !== "PASS" && l !== "APPEND" && statements[s]!.observedAt < memories[m]!.observedAt) {
      const seen = behind.get(s);
      if (seen === undefined || memories[m]!.observedAt < memories[seen]!.observedAt) behind.set(s, m);
      return "APPEND";
    }
    return l;
  };
  const update = updateMemory(memories.length, statements.length, label);
  const fused = await fuseAll(ctx, about, memories, statements, update.fusions);
  ctx.stage(planUpdate(ctx, { memories, statements, update, decisions, fused, model, behind }));
}

/** The pair operator's decisions (keyed "m:s"), in one batched step, logged as CLASSIFY. */
async function classifyPairs(
  ctx: SessionContext,
  settings: CarecallSettings,
  input: { about: string; statements: Statement[]; memories: Memory[]; pairs: Pair[]; among: number },
): Promise<{ decisions: Map<string, PairDecision>; model: string }> {
  const { about, statements, memories, pairs } = input;
  const texts = statements.map((s) => s.text);
  const decisions = new Map<string, PairDecision>();
  const result = await ctx.cognition.run(
    classifyPairsStep,
    {
      about: displayName(about),
      fusion: settings.fusion,
      pairs: pairs.map((p) => ({
        memoryId: memories[p.m]!.id,
        memory: memories[p.m]!.text,
        summary: texts[p.s]!,
        memoryAt: memories[p.m]!.observedAt,
        summaryAt: statements[p.s]!.observedAt,
      })),
    },
    { signal: ctx.signal },
  );
  for (const [i, p] of pairs.entries()) decisions.set(`${p.m}:${p.s}`, result.value[i]!);
  const { all, candidates } = settings;
  ctx.stage({
    operations: [
      ctx.operation({
        type: "CLASSIFY",
        model: result.model,
        usage: result.usage,
        memoryIds: [...new Set(pairs.map((p) => memories[p.m]!.id))],
        inputs: {
          step: classifyPairsStep.name,
          about,
          pairs: pairs.length,
          candidates: all ? "all" : candidates,
          compared: `${input.among} memories x ${statements.length} statements, ${all ? "every pair" : `${candidates} most similar each`}`,
        },
        outputs: withWarnings(
          {
            decisions: pairs.map((p, i) => ({
              memory: memories[p.m]!.id,
              summary: texts[p.s],
              label: result.value[i]!.label,
              why: result.value[i]!.rationale,
            })),
          },
          result,
        ),
      }),
    ],
  });
  return { decisions, model: result.model };
}

/** The fused sentence of each FUSION Algorithm 1 chose (keyed "memory:summary"), logged as FUSION. */
async function fuseAll(
  ctx: SessionContext,
  about: string,
  memories: Memory[],
  statements: Statement[],
  fusions: { memory: number; summary: number }[],
): Promise<Map<string, string>> {
  const texts = statements.map((s) => s.text);
  const fused = new Map<string, string>();
  for (const f of fusions) {
    const result = await ctx.cognition.run(
      fuseStep,
      {
        about: displayName(about),
        memory: memories[f.memory]!.text,
        summary: texts[f.summary]!,
        memoryAt: memories[f.memory]!.observedAt,
        summaryAt: statements[f.summary]!.observedAt,
      },
      { signal: ctx.signal },
    );
    fused.set(`${f.memory}:${f.summary}`, result.value);
    if (result.usage.calls)
      ctx.stage({
        operations: [
          ctx.operation({
            type: "FUSION",
            model: result.model,
            usage: result.usage,
            inputs: { memory: memories[f.memory]!.text, summary: texts[f.summary] },
            outputs: { fused: result.value },
            rationale: "fused sentence written",
          }),
        ],
      });
  }
  return fused;
}
