/** Recall as CareCall does it: the k memories the retrieval room ranks highest (k = 5 by default). */
import type { Recall } from "../../core/recall.js";
import type { RecallContext } from "../strategy.js";

export async function topKRecall(strategy: string, ctx: RecallContext, defaultK = 5): Promise<Recall> {
  const hits = await ctx.retriever.searchMemories(ctx.scope, {
    query: ctx.query,
    k: ctx.k || defaultK,
    filter: ctx.filter,
    now: ctx.now ?? ctx.session?.at,
  });
  return { strategy, query: ctx.query, hits };
}
