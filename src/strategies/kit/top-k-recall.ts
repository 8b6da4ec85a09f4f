/**
 * Recall as CareCall does it: the k memories the retrieval room ranks highest (k = 5 by default).
 * A question about history ("before…", "still…") also brings back superseded versions with their
 * successor, each marked current or past (retrieval/history-recall.ts).
 */
import type { Recall } from "../../core/recall.js";
import { markTemporal, searchWithHistory } from "../../retrieval/history-recall.js";
import type { RecallContext } from "../strategy.js";

export async function topKRecall(strategy: string, ctx: RecallContext, defaultK = 5): Promise<Recall> {
  const { hits, intent } = await searchWithHistory(ctx.retriever, ctx.store, ctx.scope, {
    query: ctx.query,
    k: ctx.k || defaultK,
    filter: ctx.filter,
    now: ctx.now ?? ctx.session?.at,
  });
  return markTemporal({ strategy, query: ctx.query, hits }, intent);
}
