/**
 * Strategy `creem` (Kim et al. 2024, "Ever-Evolving Memory by Blending and Refining the Past").
 * Memory is written at every turn of the partner, before the agent replies:
 *   1. a question about the partner from the dialogue so far (`creem.question`);
 *   2. contextual search: the top 5 memories for that question and the top 5 for the last two
 *      utterances, merged and numbered;
 *   3. Blend & Refine (`creem.blend-refine`): up to two insights typed New / Redundant / Updated,
 *      naming the numbered memories they retire;
 *   4. apply: insights become memories; retired ones are superseded (never erased), with
 *      NEW / REDUNDANT / UPDATED operations carrying the rationale;
 *   5. the reply sees the new insights and the retrieved memories that survived.
 * Decisions where the paper is silent (docs/strategies.md, "creem"): the pool is every active creem memory, this session's
 * included (so a later turn can update an earlier one); only insights are retrieved (raw turns
 * stay with the turn search); 0 to 2 insights (nothing worth keeping is a valid answer); it runs
 * on the partner's turns (the turn the agent replies to), insights may be about anyone present;
 * only retrieved memories can be retired (the paper's own limit); the two result lists are merged
 * by alternating ranks, duplicates dropped, numbered from 1; per-turn work waits by default so
 * the reply sees it (`perTurn: "background"` trades that for speed).
 */
import { updateRule } from "../../cognition/offline/update-rules.js";
import { displayName } from "../../core/ids.js";
import { memoryHit, type Recall, type RecallHit } from "../../core/recall.js";
import type { Memory, Operation, Turn, Usage } from "../../core/types.js";
import type { Supersession } from "../../store/memory-store.js";
import { cleanStatements } from "../kit/clean-statements.js";
import { composeReply } from "../kit/compose-reply.js";
import { consolidationHearing, heardInSession } from "../kit/memory-vectors.js";
import { statementMemory } from "../kit/statement-memory.js";
import { topKRecall } from "../kit/top-k-recall.js";
import {
  type RecallContext,
  type StandingOption,
  type Strategy,
  standingSetting,
  type TurnContext,
} from "../strategy.js";
import { blendRefineStep, dialogueTail, type Insight, type RetrievedMemory } from "./steps/blend-refine.js";
import { questionStep } from "./steps/question.js";

export interface CreemOptions extends StandingOption {
  /** Memories per query in contextual search (the paper's top-5). */
  k?: number;
  /** Ablation "−Question": search with the last two utterances only. */
  question?: boolean;
  /** Ablation "−Refine": every insight is added, nothing retired (accumulate). */
  refine?: boolean;
  /** Ablation "−Insight infuse": the reply sees only memories from earlier sessions. */
  infuse?: boolean;
  /**
   * The cheaper mode: blend once every `every` partner turns, over the last 2 × `every`
   * utterances (2 + 1 model calls per blend instead of per turn), for callers whose reply need
   * not see this very turn's insights. Default 1 (the paper: every turn).
   */
  every?: number;
}

const NAME = "creem";

/** The options, with their defaults. */
interface CreemSettings {
  k: number;
  every: number;
  useQuestion: boolean;
  refine: boolean;
  infuse: boolean;
}

export function creemStrategy(options: CreemOptions = {}): Strategy {
  const settings: CreemSettings = {
    k: options.k ?? 5,
    every: Math.max(1, Math.floor(options.every ?? 1)),
    useQuestion: options.question ?? true,
    refine: options.refine ?? true,
    infuse: options.infuse ?? true,
  };
  return {
    specificationVersion: "v1",
    ...standingSetting(options),
    name: NAME,
    description:
      "insights blended and refined at every partner turn (New / Redundant / Updated); the reply sees them",
    onTurn: (ctx) => blendTurn(ctx, settings),
    recall: (ctx) => recallBlended(ctx, settings),
    compose: (ctx, r) =>
      composeReply(ctx, r, `What you remember about ${displayName(ctx.partner)} (newest insights first)`),
  };
}

/** One partner turn: the question, the contextual search, Blend & Refine, and what it changes. */
async function blendTurn(ctx: TurnContext, settings: CreemSettings): Promise<void> {
  const { scope, turn, dialogue, session } = ctx;
  // Blends run on the partners' turns (another agent's generated reply is a partner's words);
  // the agent's own replies are part of the dialogue it reads (the paper's last two utterances).
  if (turn.speaker === scope.agent) return;
  const partnerTurns = dialogue.filter((t) => t.speaker !== scope.agent).length;
  if (partnerTurns % settings.every !== 0) return;
  const recent = dialogue.slice(-2 * settings.every);
  // 1. The question, unless ablated.
  const question = settings.useQuestion ? await askQuestion(ctx) : null;
  // 2. Contextual search: question and dialogue, top k each, merged by alternating ranks.
  const search = (query: string, k = settings.k) =>
    ctx.retriever.searchMemories(scope, {
      query,
      k,
      filter: { strategy: NAME, hearing: consolidationHearing(ctx.session) },
      now: turn.at,
    });
  // The obvious rules read a few more memories than the model is shown, as carecall's do: a change
  // or a stop often shares one word with what it ends ("left Dodoma") and ranks low by similarity.
  // One search of the dialogue serves both: its first k are shown, the rest only the rules read.
  const wide = settings.refine ? Math.max(settings.k, RULE_CANDIDATES) : settings.k;
  const [asked, said] = await Promise.all([
    question ? search(question) : Promise.resolve([]),
    search(recent.map((t) => t.text).join("\n"), wide),
  ]);
  const retrieved = interleave([asked, said.slice(0, settings.k)]);
  const ruleOnly = said.slice(settings.k).filter((h) => !retrieved.some((r) => r.id === h.id));
  const shown: RetrievedMemory[] = retrieved.map((h, i) => ({
    n: i + 1,
    about: h.about,
    text: h.text,
    at: h.observedAt,
  }));
  // 3. Blend & Refine.
  const blended = await ctx.cognition.run(
    blendRefineStep,
    {
      agent: scope.agent,
      people: [scope.agent, ...session.partners],
      at: turn.at,
      sessionId: session.id,
      recent,
      // The paper gives the whole session so far; insights still come from the latest lines.
      // Only the tail the prompt can show is handed over (the step checks its input, and a
      // long session's whole dialogue made every turn slower).
      dialogue: dialogueTail(dialogue.slice(0, -recent.length)),
      retrieved: shown,
    },
    { signal: ctx.signal },
  );
  // 4. Apply: insights added, retired memories superseded.
  const insights: Insight[] = settings.refine
    ? blended.value
    : blended.value.map((i) => ({ ...i, type: "New", removes: [], rationale: "refine ablated" }));
  applyInsights(ctx, {
    insights,
    retrieved,
    ruleOnly,
    recent,
    question,
    model: blended.model,
    usage: blended.usage,
    rules: settings.refine,
  });
}

/** The question the dialogue raises (the paper's first call), logged as SUMMARIZE. */
async function askQuestion(ctx: TurnContext): Promise<string> {
  const { scope, turn, dialogue } = ctx;
  const q = await ctx.cognition.run(
    questionStep,
    { agent: scope.agent, partner: turn.speaker, lines: dialogue.slice(-8), at: turn.at },
    { signal: ctx.signal },
  );
  ctx.stage({
    operations: [
      ctx.operation({
        type: "SUMMARIZE",
        model: q.model,
        usage: q.usage,
        inputs: { step: questionStep.name, turn: turn.id },
        outputs: { question: q.value },
      }),
    ],
  });
  return q.value;
}

/**
 * Stages the insights as memories, supersedes what they retire, and records what the reply to
 * this turn sees (the CLASSIFY record `blendRecord` reads back).
 */
function applyInsights(
  ctx: TurnContext,
  blend: {
    insights: Insight[];
    retrieved: RecallHit[];
    /** Memories only the rules read (after `retrieved`, numbered on from it); never shown to the reply. */
    ruleOnly?: RecallHit[];
    recent: Turn[];
    question: string | null;
    model: string;
    usage: Usage;
    /** Whether the obvious rules read each insight against what was retrieved (not when refine is ablated). */
    rules: boolean;
  },
): void {
  const { turn } = ctx;
  const { insights, retrieved, recent, question } = blend;
  const read = [...retrieved, ...(blend.ruleOnly ?? [])];
  const rows: Memory[] = [];
  const supersede: Supersession[] = [];
  const ops: Operation[] = [];
  const retired = new Set<string>();
  const evidence: { memoryId: string; turns: string[] }[] = [];
  // Facts, not the talk around them; one that cannot stand alone is not kept.
  const cleaned = cleanStatements(ctx, insights, () => ({ turn: turn.id }));
  ops.push(...cleaned.discarded);
  for (const given of cleaned.statements) {
    // The obvious rules first, over the retrieved memories about the same person: a fact said
    // again changes nothing but the memory's evidence, an addition retires nothing, a stop or a
    // change retires what it ends.
    const { insight, same } = blend.rules
      ? applyRules(given, read, heardInSession(ctx.session))
      : { insight: given, same: undefined };
    if (same) {
      const turns = [turn.id].filter((t) => !same.memory.sourceTurns.includes(t));
      if (turns.length > 0) evidence.push({ memoryId: same.memory.id, turns });
      ops.push(
        ctx.operation({
          type: "REDUNDANT",
          model: blend.model,
          memoryIds: [same.memory.id],
          inputs: { insight: insight.text },
          outputs: { unchanged: true, kept: same.memory.id, evidence: turns },
          rationale: same.why,
        }),
      );
      continue;
    }
    const targets = insight.removes.map((n) => read[n - 1]!);
    // A Redundant insight that says exactly what a retired memory says changes nothing: the
    // memory stays (no churn of identical rows), and the decision is still logged.
    if (insight.type === "Redundant" && targets.some((h) => h.text === insight.text)) {
      ops.push(
        ctx.operation({
          type: "REDUNDANT",
          model: blend.model,
          memoryIds: targets.map((h) => h.id),
          inputs: { insight: insight.text },
          outputs: { unchanged: true },
          rationale: insight.rationale ?? "already remembered",
        }),
      );
      continue;
    }
    const row = statementMemory(
      ctx,
      NAME,
      {
        about: insight.about,
        text: insight.text,
        sourceTurns: recent.map((t) => t.id),
        observedAt: turn.at,
      },
      { kind: "insight", attributes: { type: insight.type, ...(question ? { question } : {}) } },
    );
    const gone = targets.filter((h) => !retired.has(h.id));
    for (const h of gone) {
      retired.add(h.id);
      supersede.push({ oldId: h.id, byId: row.id, at: turn.at, reason: insight.type.toUpperCase() });
    }
    rows.push(row);
    ops.push(
      ctx.operation({
        type: insight.type === "New" ? "NEW" : insight.type === "Redundant" ? "REDUNDANT" : "UPDATED",
        model: blend.model,
        memoryIds: [row.id, ...gone.map((h) => h.id)],
        inputs: { insight: insight.text, retires: gone.map((h) => ({ id: h.id, text: h.text })) },
        outputs: { memory: row.id },
        rationale: insight.rationale ?? null,
      }),
    );
  }
  // What the reply to this turn sees: the new insights and the retrieved memories that survived.
  ops.push(
    ctx.operation({
      type: "CLASSIFY",
      model: blend.model,
      usage: blend.usage,
      memoryIds: [...retrieved.map((h) => h.id), ...rows.map((r) => r.id)],
      inputs: {
        step: blendRefineStep.name,
        turn: turn.id,
        question,
        retrieved: retrieved.map((h) => h.id),
      },
      outputs: {
        insights: rows.map((r) => ({ id: r.id, type: r.attributes.type })),
        survived: retrieved.filter((h) => !retired.has(h.id)).map((h) => h.id),
      },
    }),
  );
  ctx.stage({ memories: rows, supersede, operations: ops, ...(evidence.length ? { evidence } : {}) });
}

/**
 * An insight after the obvious rules (cognition/offline/update-rules.ts) have read it against each
 * retrieved memory about the same person: `same` names the memory that already says it; otherwise
 * the memories it stops or changes are among those it retires, and those it adds to are not.
 */
function applyRules(
  insight: Insight,
  retrieved: RecallHit[],
  heard: (memory: Memory) => boolean,
): { insight: Insight; same?: { memory: RecallHit; why: string } } {
  const removes = new Set(insight.removes);
  const why: string[] = [];
  // Whether a rule read a stop, a change or an addition (not only the memory said again in more words).
  let changed = false;
  for (const [i, memory] of retrieved.entries()) {
    if (memory.about !== insight.about) continue;
    const rule = updateRule(memory.text, insight.text, displayName(insight.about));
    if (!rule) continue;
    if (rule.rule === "same") {
      // Said again by someone who cannot hear the memory: theirs stays a memory of its own.
      if (memory.memory && !heard(memory.memory)) continue;
      if (!rule.fuller) return { insight, same: { memory, why: rule.why } };
      // Said whole within more: the insight holds it, and the memory retires into it.
      removes.add(i + 1);
      why.push(rule.why);
      continue;
    }
    if (rule.rule === "addition") removes.delete(i + 1);
    else removes.add(i + 1);
    changed = true;
    why.push(rule.why);
  }
  if (why.length === 0) return { insight };
  const list = [...removes].sort((a, b) => a - b);
  // Retiring anything is an update, whatever the insight was typed (a memory said again within it
  // is merged: Redundant); retiring nothing is new.
  const type = list.length === 0 ? "New" : changed ? "Updated" : "Redundant";
  return {
    insight: {
      ...insight,
      removes: list,
      type,
      rationale: [insight.rationale, ...why].filter(Boolean).join("; "),
    },
  };
}

/** What the reply sees: this turn's blend record (insights and survivors), else a plain search. */
async function recallBlended(ctx: RecallContext, settings: CreemSettings): Promise<Recall> {
  const turn = ctx.session && lastPartnerTurn(ctx.dialogue ?? [], ctx.scope.agent);
  // This turn's own Blend & Refine record (with `every` > 1, the latest blend's); when it
  // failed there is none, and the reply gets a plain search, not the previous turn's record.
  const record = turn ? await blendRecord(ctx, turn, settings.every > 1) : null;
  if (!record) return topKRecall(NAME, { ...ctx, filter: { ...ctx.filter, strategy: NAME } }, settings.k);
  const ids = [...(settings.infuse ? record.insights : []), ...record.survived];
  const byId = new Map(
    (await ctx.store.listMemories(ctx.scope, { ids, status: "active" })).map((m) => [m.id, m]),
  );
  const hits: RecallHit[] = ids
    .map((id) => byId.get(id))
    .filter((m): m is Memory => m !== undefined)
    .filter((m) => settings.infuse || m.sessionId !== ctx.session?.id)
    .map((m, i) => memoryHit(m, { score: 1 / (i + 1) }));
  return { strategy: NAME, query: ctx.query, hits };
}

/** Memories the rules read per blended turn, at least (the model is shown `k` per query). */
const RULE_CANDIDATES = 10;

/** Blend records read back at recall, newest first (see blendRecord). */
const RECENT_RECORDS = 8;

/** The two result lists alternated by rank, duplicates dropped. */
function interleave(lists: RecallHit[][]): RecallHit[] {
  const out: RecallHit[] = [];
  const seen = new Set<string>();
  for (let rank = 0; rank < Math.max(...lists.map((l) => l.length), 0); rank++)
    for (const list of lists) {
      const hit = list[rank];
      if (hit && !seen.has(hit.id)) {
        seen.add(hit.id);
        out.push(hit);
      }
    }
  return out;
}

function lastPartnerTurn(dialogue: Turn[], agent: string): Turn | undefined {
  return [...dialogue].reverse().find((t) => t.speaker !== agent);
}

/**
 * The Blend & Refine record of `turn`; with `latest`, the session's latest at or before it
 * (blends every few turns cover the turns between them).
 */
async function blendRecord(
  ctx: RecallContext,
  turn: Turn,
  latest: boolean,
): Promise<{ insights: string[]; survived: string[] } | null> {
  // The newest few records, not the session's whole log: the turn asked about is the session's
  // latest partner turn, so its record (or the latest blend's) is among the newest, and a long
  // session's recall costs no more than a short one's.
  const ops = await ctx.store.listOperations(ctx.scope, {
    sessionId: ctx.session!.id,
    type: "CLASSIFY",
    status: "done",
    newest: true,
    limit: RECENT_RECORDS,
  });
  const record = ops
    .filter((o) => o.strategy === NAME && o.at <= turn.at)
    .find((o) => latest || (o.inputs as { turn?: string } | null)?.turn === turn.id);
  if (!record) return null;
  const out = record.outputs as { insights: { id: string }[]; survived: string[] };
  return { insights: out.insights.map((i) => i.id), survived: out.survived };
}
