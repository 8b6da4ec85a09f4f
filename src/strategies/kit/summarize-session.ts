/**
 * The end-of-session summary shared by the summary-based strategies: run the `summarize` step and
 * record it as a SUMMARIZE operation with its inputs, outputs and cost; its statements then come
 * cleaned (clean-statements.ts).
 */
import type { Statement } from "../../core/types.js";
import type { SessionContext } from "../strategy.js";
import { cleanStatements } from "./clean-statements.js";
import { withWarnings } from "./step-warnings.js";
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
    outputs: withWarnings(
      { statements: result.value.map((s) => ({ about: s.about, text: s.text, sourceTurns: s.sourceTurns })) },
      result,
    ),
    usage: result.usage,
  });
  const { statements, discarded } = cleanStatements(ctx, result.value, (s) => ({
    sourceTurns: s.sourceTurns,
  }));
  ctx.stage({ operations: [op, ...discarded] });
  return { statements, opId: op.id };
}
