/**
 * CareCall's "memory accumulate" baseline: each session's summary statements are appended to
 * memory and never updated (APPEND is its only operation). Recall is top-k hybrid retrieval.
 */
import { newId } from "../../core/ids.js";
import type { Memory } from "../../core/types.js";
import { composeReply } from "../compose.js";
import type { Strategy } from "../strategy.js";
import { summarizeSession } from "../summarize-session.js";

export function accumulateStrategy(options: { k?: number } = {}): Strategy {
  return {
    name: "accumulate",
    description: "session summaries appended to memory, never updated",
    async onSessionEnd(ctx) {
      const { statements } = await summarizeSession(ctx);
      const now = new Date().toISOString();
      for (const s of statements) {
        const memory: Memory = {
          id: newId("mem"),
          tenant: ctx.scope.tenant,
          agent: ctx.scope.agent,
          about: s.about,
          text: s.text,
          kind: "summary",
          strategy: "accumulate",
          observedAt: s.observedAt,
          recordedAt: now,
          status: "active",
          invalidAt: null,
          sessionId: ctx.session.id,
          sourceTurns: s.sourceTurns,
          attributes: s.attributes ?? {},
        };
        ctx.stage({
          memories: [memory],
          operations: [
            ctx.operation({
              type: "APPEND",
              memoryIds: [memory.id],
              outputs: { memory: memory.id, text: memory.text },
            }),
          ],
        });
      }
    },
    async recall(ctx) {
      const hits = await ctx.retriever.searchMemories(ctx.scope, {
        query: ctx.query,
        k: ctx.k || options.k || 5,
        filter: ctx.filter,
      });
      return { strategy: "accumulate", query: ctx.query, hits };
    },
    compose: (ctx, recall) => composeReply(ctx, recall),
  };
}
