/**
 * CareCall's "memory accumulate" baseline: each session's summary statements are appended to
 * memory and never updated (APPEND is its only operation). Recall is top-k hybrid retrieval.
 */
import { composeReply } from "../kit/compose-reply.js";
import { statementMemory } from "../kit/statement-memory.js";
import { summarizeSession } from "../kit/summarize-session.js";
import { topKRecall } from "../kit/top-k-recall.js";
import { type StandingOption, type Strategy, standingSetting } from "../strategy.js";

export function accumulateStrategy(options: { k?: number } & StandingOption = {}): Strategy {
  return {
    specificationVersion: "v1",
    ...standingSetting(options),
    name: "accumulate",
    description: "session summaries appended to memory, never updated",
    async onSessionEnd(ctx) {
      const { statements } = await summarizeSession(ctx);
      for (const s of statements) {
        const memory = statementMemory(ctx, "accumulate", s);
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
    recall: (ctx) => topKRecall("accumulate", ctx, options.k),
    compose: (ctx, recall) => composeReply(ctx, recall),
  };
}
