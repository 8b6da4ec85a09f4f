/** The memory row a summary statement becomes, in the session being consolidated. */
import { newId } from "../../core/ids.js";
import type { Memory, Statement } from "../../core/types.js";
import type { StrategyContext } from "../strategy.js";

export function statementMemory(
  ctx: Pick<StrategyContext, "scope" | "session">,
  strategy: string,
  s: Statement,
  fields: Partial<Memory> = {},
): Memory {
  return {
    id: newId("mem"),
    tenant: ctx.scope.tenant,
    agent: ctx.scope.agent,
    about: s.about,
    text: s.text,
    kind: "summary",
    strategy,
    observedAt: s.observedAt,
    recordedAt: new Date().toISOString(),
    status: "active",
    invalidAt: null,
    sessionId: ctx.session.id,
    sourceTurns: s.sourceTurns,
    attributes: s.attributes ?? {},
    ...fields,
  };
}
