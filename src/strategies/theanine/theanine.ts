/**
 * Strategy `theanine` (Kim et al. 2024): memories are events in a graph, linked by cause-effect
 * relations; replies see timelines of how events developed, not isolated facts.
 *   Phase I   (session end): each new memory's top-j associative memories (j = 3) are related by
 *             the model (Changed, Cause, Reason, HinderedBy, React, Want, SameTopic or None), shown
 *             with the dialogue lines both memories come from; the new memory links to the most
 *             recent related one in each connected component.
 *   Phase II  (recall): top-k memories (k = 3) for the current dialogue context (the last few
 *             turns; the partner's last utterance alone is an ablation); for each, one timeline
 *             from the oldest memory that reaches it, through it, to an end (n = 1, seeded); then
 *             each timeline is refined for the recent dialogue.
 *   Phase III (reply): the model reasons over dialogue and refined timelines, then replies; the
 *             rationale is kept in the REPLY operation.
 * Nothing is superseded here: old memories stay active and are shown in order.
 */

import { hearingTest } from "../../core/audience.js";
import { displayName } from "../../core/ids.js";
import { linkTargets, sampleTimeline, seededRandom } from "../../core/memory-graph.js";
import { memoryStatus, type Recall, type RecallTimeline } from "../../core/recall.js";
import { fnv1a } from "../../core/text.js";
import { addUsage, type Edge, emptyUsage, type Memory, type Turn } from "../../core/types.js";
import { composeReply } from "../kit/compose-reply.js";
import { nearestMemories } from "../kit/memory-vectors.js";
import { statementMemory } from "../kit/statement-memory.js";
import { withWarnings } from "../kit/step-warnings.js";
import { summarizeSession } from "../kit/summarize-session.js";
import {
  type RecallContext,
  type RetriedStep,
  type SessionContext,
  type StandingOption,
  type Strategy,
  standingSetting,
} from "../strategy.js";
import { type LinkRelationsInput, linkRelationsStep } from "./steps/link-relations.js";
import { RECENT_TURNS, recentDialogue, refineTimelineStep } from "./steps/refine-timeline.js";

/**
 * What retrieval is asked with while replying: `"context"` (default, the paper's D) is what the
 * partners said in the last few turns of the session; `"last-utterance"` is the partner's last
 * turn alone (the ablation). The agent's own replies are left out of the query (the refinement
 * still reads them): they are made of what it recalled before, and asking with them pulled every
 * later recall back to the same memories (on LoCoMo conv-30's TeaFarm exam, the same three
 * memories for all ten questions). Without a dialogue both use the caller's query.
 */
export type TheanineQuery = "context" | "last-utterance";

export interface TheanineOptions extends StandingOption {
  /** Associative memories considered for each new memory (the paper's j = 3). */
  j?: number;
  /** Memories retrieved for a reply, each giving one timeline (the paper's k = 3). */
  k?: number;
  /** Seed of timeline sampling (mixed with each retrieved memory's time and text). */
  seed?: number;
  /** Ablation: link by similarity only (every associative memory counts as SameTopic). */
  relationAware?: boolean;
  /** Ablation: hand raw timelines to the reply, unrefined. */
  refine?: boolean;
  /** Recall query: the dialogue context (default) or the partner's last utterance (ablation). */
  query?: TheanineQuery;
  /**
   * What the reply sees: `"timelines"` (default, the paper: the refined timelines alone, every
   * retrieved memory being on one) or `"mix"` (the retrieved memories listed too, memlane's
   * behaviour before).
   */
  reply?: "timelines" | "mix";
}

/** Source lines shown per memory when linking (the step shows at most this many). */
const SOURCE_LINES = 3;

/** The options, with their defaults. */
interface TheanineSettings {
  j: number;
  k: number;
  seed: number;
  relationAware: boolean;
  replyShows: "timelines" | "mix";
  refine: boolean;
  queryMode: TheanineQuery;
}

/** The strategy's name, and the `strategy` of every memory it writes. */
const NAME = "theanine";

export function theanineStrategy(options: TheanineOptions = {}): Strategy {
  const settings: TheanineSettings = {
    j: options.j ?? 3,
    k: options.k ?? 3,
    seed: options.seed ?? 1,
    relationAware: options.relationAware ?? true,
    replyShows: options.reply ?? "timelines",
    refine: options.refine ?? true,
    queryMode: options.query ?? "context",
  };
  return {
    specificationVersion: "v1",
    ...standingSetting(options),
    name: NAME,
    description: "a memory graph of linked events (Changed, Cause, Want…), recalled as refined timelines",
    onSessionEnd: (ctx) => linkSession(ctx, settings),
    onRetried: (ctx, answered) => linkAnswered(ctx, answered),
    recall: (ctx) => recallTimelines(ctx, settings),
    compose: (ctx, r) => ({
      ...composeReply(ctx, settings.replyShows === "mix" ? r : { ...r, hits: [] }),
      reasoning: true,
    }),
  };
}

/** A new memory and an older one it may relate to. */
interface Pair {
  older: Memory;
  newer: Memory;
}

/** A relation decided for a pair (the step's answer, or SameTopic with linking off). */
interface RelationDecision {
  relation: string;
  rationale?: string | null;
}

/**
 * Phase I at session end: the session's events become memories, each linked to the most recent
 * related memory of every timeline its associative memories belong to.
 */
async function linkSession(ctx: SessionContext, settings: TheanineSettings): Promise<void> {
  const { statements } = await summarizeSession(ctx);
  if (statements.length === 0) return;
  const { graph } = await ctx.caches.graph(ctx.scope, NAME);
  const fresh = statements.map((s) => statementMemory(ctx, NAME, s, { kind: "event" }));
  const newVectors = await ctx.embedder.embed(
    fresh.map((m) => m.text),
    { signal: ctx.signal },
  );
  // Phase I-1: top-j associative memories of each new memory, among those stored before (G^t).
  const near = await nearestMemories(ctx, newVectors, settings.j, { strategy: NAME, status: "any" });
  const associative = near.lists.map((list) => list.map((x) => x.memory));
  const pairs = fresh.flatMap((m, i) => associative[i]!.map((older) => ({ older, newer: m })));
  // Phase I-2: one batched relation call for the whole session.
  const decisions: RelationDecision[] =
    settings.relationAware && pairs.length > 0
      ? await classifyRelations(ctx, settings, pairs)
      : pairs.map(() => ({
          relation: "SameTopic",
          rationale: "similarity only (relation-aware linking off)",
        }));
  const edges: Edge[] = [];
  const recordedAt = new Date().toISOString();
  for (const [i, m] of fresh.entries()) {
    const related = new Map<string, string>();
    pairs.forEach((p, x) => {
      if (p.newer === m && decisions[x]!.relation !== "None") related.set(p.older.id, decisions[x]!.relation);
    });
    // Link only to the most recent related memory of each connected component.
    const targets = linkTargets(graph, [...related.keys()]);
    for (const t of targets)
      edges.push({
        id: `edge_${t}_${m.id}`,
        tenant: ctx.scope.tenant,
        agent: ctx.scope.agent,
        from: t,
        to: m.id,
        type: related.get(t) as Edge["type"],
        attributes: settings.relationAware ? {} : { ablation: "similarity-only" },
        recordedAt,
      });
    ctx.stage({
      operations: [
        ctx.operation({
          type: "LINK",
          memoryIds: [m.id, ...targets],
          outputs: {
            memory: m.id,
            text: m.text,
            linked: targets.map((t) => ({ to: t, relation: related.get(t) })),
            considered: associative[i]!.map((a) => a.id),
          },
          rationale: targets.length
            ? `linked to the most recent related memory of ${targets.length} component(s)`
            : "no related memory: starts a new timeline",
        }),
      ],
    });
  }
  ctx.stage({ memories: fresh, edges });
}

/**
 * A pair left unlinked because its relation never fitted, answered on retry: a relation other
 * than None links the two memories, when both are still there (a LINK operation says why).
 */
async function linkAnswered(ctx: SessionContext, answered: RetriedStep): Promise<void> {
  if (answered.step !== linkRelationsStep.name) return;
  const { pairs } = answered.input as LinkRelationsInput;
  const decisions = answered.value as RelationDecision[];
  const linked = pairs
    .map((p, i) => ({ from: p.older.id, to: p.newer.id, decision: decisions[i] }))
    .filter((x): x is { from: string; to: string; decision: RelationDecision } =>
      Boolean(x.from && x.to && x.decision && x.decision.relation !== "None"),
    );
  if (linked.length === 0) return;
  const present = new Set(
    (
      await ctx.store.listMemories(ctx.scope, { ids: linked.flatMap((x) => [x.from, x.to]), status: "any" })
    ).map((m) => m.id),
  );
  const recordedAt = new Date().toISOString();
  for (const x of linked.filter((l) => present.has(l.from) && present.has(l.to)))
    ctx.stage({
      edges: [
        {
          id: `edge_${x.from}_${x.to}`,
          tenant: ctx.scope.tenant,
          agent: ctx.scope.agent,
          from: x.from,
          to: x.to,
          type: x.decision.relation as Edge["type"],
          attributes: { answeredOnRetry: true },
          recordedAt,
        },
      ],
      operations: [
        ctx.operation({
          type: "LINK",
          memoryIds: [x.to, x.from],
          outputs: { memory: x.to, linked: [{ to: x.from, relation: x.decision.relation }] },
          rationale: "a relation answered on retry (the pair had been left unlinked)",
        }),
      ],
    });
}

/** The relation of each pair, in one batched step that sees where both memories came from; logged as CLASSIFY. */
async function classifyRelations(
  ctx: SessionContext,
  settings: TheanineSettings,
  pairs: Pair[],
): Promise<RelationDecision[]> {
  const source = await sourceLines(ctx, pairs);
  const result = await ctx.cognition.run(
    linkRelationsStep,
    {
      about: ctx.session.partners.map(displayName).join(", "),
      pairs: pairs.map((p) => ({
        older: {
          id: p.older.id,
          text: p.older.text,
          at: p.older.observedAt,
          source: source.get(p.older.id) ?? [],
        },
        newer: {
          id: p.newer.id,
          text: p.newer.text,
          at: p.newer.observedAt,
          source: source.get(p.newer.id) ?? [],
        },
      })),
    },
    { signal: ctx.signal },
  );
  const decisions = result.value;
  ctx.stage({
    operations: [
      ctx.operation({
        type: "CLASSIFY",
        model: result.model,
        usage: result.usage,
        memoryIds: [...new Set(pairs.map((p) => p.older.id))],
        inputs: { step: linkRelationsStep.name, pairs: pairs.length, j: settings.j },
        outputs: withWarnings(
          {
            decisions: pairs.map((p, i) => ({
              older: p.older.id,
              newer: p.newer.text,
              relation: decisions[i]!.relation,
              why: decisions[i]!.rationale,
            })),
          },
          result,
        ),
      }),
    ],
  });
  return decisions;
}

/**
 * Phases II and III at a reply: the memories the dialogue retrieves, each with a timeline sampled
 * through it (only the steps the hearer may hear), refined against the recent exchange.
 */
async function recallTimelines(ctx: RecallContext, settings: TheanineSettings): Promise<Recall> {
  const dialogue = ctx.dialogue ?? [];
  // Phase II asks with the dialogue context D (texts only: speaker names would tilt the
  // subject signal toward whoever spoke most), the partners' lines of it: the agent's own
  // replies echo what it recalled before (see TheanineQuery). The ablation asks with the
  // partner's last utterance.
  const partners = dialogue.filter((t) => t.speaker !== ctx.scope.agent);
  const context = dialogue
    .slice(-RECENT_TURNS)
    .filter((t) => t.speaker !== ctx.scope.agent)
    .map((t) => t.text);
  const query =
    settings.queryMode === "context" && context.length > 0
      ? context.join("\n")
      : (partners.at(-1)?.text ?? ctx.query);
  // The refinement reads the recent exchange, both speakers, whichever query retrieval used.
  const talk = dialogue.length > 0 ? recentDialogue(dialogue) : ctx.query;
  const hits = await ctx.retriever.searchMemories(ctx.scope, {
    query,
    k: ctx.k || settings.k,
    filter: { ...ctx.filter, strategy: NAME },
    now: ctx.now ?? ctx.session?.at,
  });
  if (hits.length === 0) return { strategy: NAME, query: ctx.query, hits, timelines: [] };
  const { graph, memories } = await ctx.caches.graph(ctx.scope, NAME);
  const timelines: RecallTimeline[] = [];
  const seen = new Set<string>();
  let usage = emptyUsage();
  // A timeline shows only what the recall's hearer may hear: the steps another partner said
  // leave it before it is refined, so the refinement never reads them.
  const hears = ctx.filter?.hearing ? hearingTest(ctx.filter.hearing) : () => true;
  for (const hit of hits) {
    // Seeded by what the memory says and when, not by its id (ids are random): the same
    // conversation samples the same timelines in every run.
    const sampled = sampleTimeline(
      graph,
      hit.id,
      seededRandom(settings.seed ^ fnv1a(`${hit.observedAt}\n${hit.text}`)),
    );
    const steps = sampled.filter((s) => hears(memories.get(s.id) as Memory));
    const key = steps.map((s) => s.id).join(">");
    if (seen.has(key)) continue;
    seen.add(key);
    const entries = steps.map((s) => {
      const m = memories.get(s.id) as Memory;
      return {
        id: s.id,
        text: m.text,
        at: m.observedAt,
        relation: s.relation,
        // Theanine supersedes nothing, but a correction or another strategy in the store may have.
        status: memoryStatus(m),
        ...(m.invalidAt ? { invalidAt: m.invalidAt } : {}),
      };
    });
    const timeline: RecallTimeline = { through: hit.id, entries };
    if (settings.refine) {
      const refined = await ctx.cognition.run(
        refineTimelineStep,
        { dialogue: talk, timeline: entries, through: hit.id, at: ctx.now ?? ctx.session?.at },
        { signal: ctx.signal },
      );
      timeline.refined = refined.value;
      usage = addUsage(usage, refined.usage);
    }
    timelines.push(timeline);
  }
  return { strategy: NAME, query: ctx.query, hits, timelines, usage };
}

/**
 * The dialogue lines each memory of the pairs was drawn from, "Name: text", by memory id: the
 * new memories' turns are this session's, the older ones' are read from the store.
 */
async function sourceLines(ctx: SessionContext, pairs: Pair[]): Promise<Map<string, string[]>> {
  const memories = [...new Map(pairs.flatMap((p) => [p.older, p.newer]).map((m) => [m.id, m])).values()];
  const turns = new Map<string, Turn>(ctx.turns.map((t) => [t.id, t]));
  const missing = [
    ...new Set(memories.flatMap((m) => m.sourceTurns.slice(0, SOURCE_LINES)).filter((id) => !turns.has(id))),
  ];
  if (missing.length > 0)
    for (const t of await ctx.store.listTurns(ctx.scope, { ids: missing })) turns.set(t.id, t);
  return new Map(
    memories.map((m) => [
      m.id,
      m.sourceTurns
        .slice(0, SOURCE_LINES)
        .map((id) => turns.get(id))
        .filter((t): t is Turn => t !== undefined)
        .map((t) => `${displayName(t.speaker)}: ${t.text}`),
    ]),
  );
}
