/**
 * The agent's next utterance in a session: grounded in what the session's strategy recalls for
 * the latest partner turn (or a given query), for the partners present, with everyone's standing
 * instructions in its prompt, and recorded as a REPLY operation. A reply always comes back: a
 * step on its path whose answer cannot be used takes its fallback (the offline reply for the
 * reply itself), and each such failure is written as a failed STEP operation beside the REPLY.
 */
import type { ReplyInput } from "../../cognition/inputs.js";
import type { Recall } from "../../core/recall.js";
import { addUsage, type Scope, type Session, type StepFailure } from "../../core/types.js";
import { newOperation } from "../operations.js";
import type { EngineParts } from "../parts.js";
import { sessionHearing } from "../privacy/hearing.js";
import { recallMemories } from "../recall.js";
import type { TurnPath } from "../session/turn-path.js";
import { withStandingShown } from "../standing/standing-memory.js";
import { notingFailures, stepFailureOperation } from "../step-failures.js";
import { replyStepFor } from "./reply-step.js";
import { replyWindowOf } from "./reply-window.js";

export interface ReplyResult {
  text: string;
  recall: Recall;
}

/** Replies in the session once its per-turn work is done, so the reply sees it. */
export async function replyInSession(
  parts: EngineParts,
  turns: TurnPath,
  scope: Scope,
  session: Session,
  query?: string,
  signal?: AbortSignal,
): Promise<ReplyResult> {
  await turns.settled(scope, session.id);
  const { store, cognition } = parts;
  // The held copy, brought up to date from the change log: a reply late in a long session
  // costs what one early in it does; the reply sees the newest turns only (`replyWindow`).
  const dialogue = replyWindowOf(await turns.dialogue(scope, session.id), parts.replyWindow);
  const lastPartnerTurn = dialogue.findLast((t) => t.speaker !== scope.agent);
  const partner = lastPartnerTurn?.speaker ?? session.partners[0]!;
  const q = query ?? lastPartnerTurn?.text ?? "";
  const strategy = parts.strategies.get(session.strategy);
  // What the partners present may hear, and nothing another partner said (privacy/hearing.ts);
  // everyone's standing instructions hold in a reply, whatever the question was.
  const recall = await recallMemories(parts, scope, {
    strategy,
    query: q,
    hearing: sessionHearing(session, strategy),
    standingFor: session.partners,
    session,
    dialogue,
    signal,
  });
  const prompt = withStandingShown(strategy.compose({ scope, session, partner, dialogue }, recall), recall);
  const at = dialogue.at(-1)?.at ?? session.at;
  const input: ReplyInput = { agent: scope.agent, partner, at, dialogue, recall, prompt };
  const failures: StepFailure[] = [...(recall.failures ?? [])];
  const result = await notingFailures(cognition, failures, { fallBack: true }).run(
    replyStepFor(input),
    input,
    { signal },
  );
  const failed = failures.map((f) => stepFailureOperation(scope, strategy.name, session.id, at, f));
  const op = newOperation(scope, strategy.name, result.model, session.id, at, {
    type: "REPLY",
    memoryIds: recall.hits.filter((h) => h.kind === "memory").map((h) => h.id),
    inputs: { query: q },
    outputs: {
      text: result.value.text,
      ...(result.warnings ? { warnings: result.warnings } : {}),
      ...(failed.length ? { fallbacks: failed.map((f) => f.id) } : {}),
    },
    rationale: result.value.rationale ?? null,
    usage: recall.usage ? addUsage(recall.usage, result.usage) : result.usage,
  });
  await store.write(scope, { operations: [...failed, op] });
  for (const o of [...failed, op]) parts.events.emit("operation", o);
  return { text: result.value.text, recall };
}
