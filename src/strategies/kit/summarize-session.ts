/**
 * The end-of-session summary shared by the summary-based strategies: run the `summarize` step and
 * record it as a SUMMARIZE operation with its inputs, outputs and cost.
 */
import { cleanStatement } from "../../cognition/offline/clean-statement.js";
import { displayName } from "../../core/ids.js";
import type { Operation, Statement } from "../../core/types.js";
import type { SessionContext } from "../strategy.js";
import { summarizeStep } from "./steps/summarize.js";

export async function summarizeSession(
  ctx: SessionContext,
): Promise<{ statements: Statement[]; opId: string }> {
  const result = await ctx.cognition.run(
    summarizeStep,
    {
      agent: ctx.scope.agent,
      partners: ctx.session.partners,
      sessionId: ctx.session.id,
      at: ctx.session.at,
      turns: ctx.turns,
    },
    { signal: ctx.signal },
  );
  const op = ctx.operation({
    type: "SUMMARIZE",
    model: result.model,
    inputs: { session: ctx.session.id, turns: ctx.turns.map((t) => t.id), step: summarizeStep.name },
    outputs: {
      statements: result.value.map((s) => ({ about: s.about, text: s.text, sourceTurns: s.sourceTurns })),
    },
    usage: result.usage,
  });
  const { statements, discarded } = cleanStatements(ctx, result.value, (s) => ({
    sourceTurns: s.sourceTurns,
  }));
  ctx.stage({ operations: [op, ...discarded] });
  return { statements, opId: op.id };
}

/**
 * Statements (or insights) as memories should hold them (cognition/offline/clean-statement.ts):
 * the talk taken off, and those that cannot stand alone left out, each with a DISCARD operation
 * saying why; `where` adds what the operation should name of its source (turns, a turn).
 */
export function cleanStatements<T extends { about: string; text: string }>(
  ctx: Pick<SessionContext, "scope" | "operation">,
  statements: T[],
  where: (statement: T) => Record<string, unknown> = () => ({}),
): { statements: T[]; discarded: Operation[] } {
  const kept: T[] = [];
  const discarded: Operation[] = [];
  for (const s of statements) {
    const cleaned = cleanStatement(s.text, displayName(s.about), displayName(ctx.scope.agent));
    if ("dropped" in cleaned)
      discarded.push(
        ctx.operation({
          type: "DISCARD",
          model: "rules",
          inputs: { about: s.about, text: s.text, ...where(s) },
          rationale: cleaned.dropped,
        }),
      );
    else kept.push(cleaned.changed ? { ...s, text: cleaned.text } : s);
  }
  return { statements: kept, discarded };
}
