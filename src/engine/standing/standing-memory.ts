/**
 * Standing instructions and preferences: what a partner asks for once and means to hold from then
 * on ("from now on, keep it short", "I don't eat dairy"). No similarity search finds such a turn
 * from a later question, so they are kept apart, as memories of kind and strategy "standing", and
 * every reply and recall about that partner gets them (newest first, at most STANDING_SHOWN),
 * whatever the session's strategy, for every strategy that keeps memory at all. A change of mind
 * supersedes the old version; a taking-back supersedes it with nothing. Read at session end.
 */
import type { Prompt, StandingDecision } from "../../cognition/inputs.js";
import { hearingTest } from "../../core/audience.js";
import { displayName } from "../../core/ids.js";
import { memoryHit, type Recall, type RecallHit } from "../../core/recall.js";
import { formatDay } from "../../core/time.js";
import {
  type Hearing,
  type Memory,
  type Operation,
  type Scope,
  type Session,
  STANDING_KIND,
  type StepWarning,
  type Turn,
} from "../../core/types.js";
import type { ScopeCaches } from "../../retrieval/engine-caches.js";
import type { Supersession, WriteBatch } from "../../store/memory-store.js";
import { statementMemory } from "../../strategies/kit/statement-memory.js";
import type { Strategy } from "../../strategies/strategy.js";
import { failedOperation, newOperation } from "../operations.js";
import type { EngineParts } from "../parts.js";
import { standingStep } from "./standing-step.js";

/** The strategy and the kind of standing memories (search indexes leave that kind out). */
export const STANDING = STANDING_KIND;

/** Standing items a reply or recall gets at most, newest first. */
export const STANDING_SHOWN = 8;

/**
 * Whether sessions of this strategy keep standing items: those that keep any memory, when the
 * strategy's own `standing` option, else the engine's, says so.
 */
export function keepsStanding(parts: EngineParts, strategy: Strategy): boolean {
  return (
    (strategy.standing ?? parts.standing) &&
    (strategy.onSessionEnd !== undefined || strategy.onTurn !== undefined)
  );
}

/** The standing items in force about these people (all, without `about`), newest first. */
export async function standingFor(
  caches: ScopeCaches,
  scope: Scope,
  about?: string[],
  limit = STANDING_SHOWN,
  hearing?: Hearing,
): Promise<Memory[]> {
  const hears = hearing ? hearingTest(hearing) : () => true;
  // Held in this process and kept current from the change log: a recall after a turn costs two
  // small reads, not a pass over the partner's memories.
  const items = (await caches.held(scope, { strategy: STANDING, kind: STANDING }))
    .filter((m) => (!about || about.includes(m.about)) && hears(m))
    .sort((a, b) => (a.observedAt < b.observedAt ? 1 : a.observedAt > b.observedAt ? -1 : 0));
  return items.slice(0, limit);
}

/** The recall with the standing items about these people added (unchanged when there are none). */
export async function withStanding(
  parts: EngineParts,
  scope: Scope,
  recall: Recall,
  about?: string[],
  hearing?: Hearing,
): Promise<Recall> {
  const held = await standingFor(parts.caches, scope, about, STANDING_SHOWN, hearing);
  if (held.length === 0) return recall;
  const standing: RecallHit[] = held.map((m, i) => memoryHit(m, { score: 1 / (i + 1) }));
  return { ...recall, standing };
}

/**
 * The reply prompt with the recall's standing items added to its instructions, whatever the
 * strategy composed (so a strategy of your own gets them too). Unchanged when there are none.
 */
export function withStandingShown(prompt: Prompt, recall: Recall): Prompt {
  if (!recall.standing?.length) return prompt;
  const lines = recall.standing.map(
    (h) => `- ${displayName(h.about)} (${formatDay(h.observedAt)}): ${h.text}`,
  );
  return {
    ...prompt,
    system: `${prompt.system}\n\nStanding instructions and preferences, newest first (follow them unless the person changes them now):\n${lines.join("\n")}`,
  };
}

/**
 * Reads a closed session for standing items and stages what it found: new memories, the old
 * versions they supersede, and one operation per decision. A model that keeps failing the step's
 * schema does not fail the session's consolidation: its failure is staged as an operation.
 */
export async function stageStanding(
  parts: EngineParts,
  scope: Scope,
  session: Session,
  turns: Turn[],
  stage: (batch: WriteBatch) => void,
  signal?: AbortSignal,
): Promise<void> {
  const partners = session.partners.filter((p) => p !== scope.agent);
  if (partners.length === 0 || !turns.some((t) => partners.includes(t.speaker))) return;
  const held = (await standingFor(parts.caches, scope, partners, Number.POSITIVE_INFINITY)).reverse();
  const input = {
    agent: scope.agent,
    partners,
    at: session.at,
    turns,
    standing: held.map((m) => ({ id: m.id, about: m.about, text: m.text, at: m.observedAt })),
  };
  const model = parts.cognition.name;
  let decisions: StandingDecision[];
  let usage: Operation["usage"] | undefined;
  let warnings: StepWarning[] | undefined;
  try {
    const result = await parts.cognition.run(standingStep, input, { signal });
    decisions = result.value;
    usage = result.usage;
    warnings = result.warnings;
  } catch (error) {
    stage({
      operations: [
        failedOperation(
          scope,
          "CLASSIFY",
          STANDING,
          model,
          session.id,
          session.at,
          { session: session.id, turns: turns.map((t) => t.id) },
          error,
        ),
      ],
    });
    return;
  }
  const byTurn = new Map(turns.map((t) => [t.id, t]));
  const memories: Memory[] = [];
  const supersede: Supersession[] = [];
  const operations: Operation[] = [];
  // A taking-back that names nothing in force takes nothing back.
  for (const d of decisions.filter((d) => d.kind !== "revoke" || d.replaces !== null)) {
    const at = byTurn.get(d.turn)?.at ?? session.at;
    const memory: Memory | null =
      d.kind === "revoke"
        ? null
        : statementMemory(
            { scope, session },
            STANDING,
            { about: d.about, text: d.text, sourceTurns: [d.turn], observedAt: at },
            { kind: STANDING, attributes: { standing: d.kind } },
          );
    if (memory) memories.push(memory);
    if (d.replaces)
      supersede.push({
        oldId: d.replaces,
        byId: memory?.id ?? null,
        at,
        reason: memory ? "a standing item changed" : "a standing item taken back",
      });
    operations.push(
      newOperation(scope, STANDING, model, session.id, at, {
        type: d.kind === "revoke" ? "DELETE" : d.replaces ? "UPDATED" : "NEW",
        memoryIds: [...(memory ? [memory.id] : []), ...(d.replaces ? [d.replaces] : [])],
        inputs: { turn: d.turn },
        // The first operation carries the step's cost and what the model's window left out.
        outputs: {
          kind: d.kind,
          text: d.text,
          replaces: d.replaces,
          ...(operations.length === 0 && warnings ? { warnings } : {}),
        },
        ...(operations.length === 0 && usage ? { usage } : {}),
      }),
    );
  }
  if (operations.length) stage({ memories, supersede, operations });
}
