/**
 * Statements cleaned before they become memories, with the DISCARD operations of those left out:
 * the kit's one place for it, used by the summary strategies and creem.
 */
import { cleanStatement } from "../../cognition/offline/clean-statement.js";
import { displayName } from "../../core/ids.js";
import type { Operation } from "../../core/types.js";
import type { SessionContext } from "../strategy.js";

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
