/**
 * CareCall's "history accumulate" baseline: no memories; every turn of the past sessions is
 * handed to the reply, as far as the prompt budget allows: the newest turns are kept, and shown
 * oldest first.
 */
import { turnHit } from "../../core/recall.js";
import { composeReply } from "../kit/compose-reply.js";
import type { Strategy } from "../strategy.js";

export function historyStrategy(): Strategy {
  return {
    specificationVersion: "v1",
    name: "history",
    description: "no summaries: all past sessions' turns are given to the reply",
    async recall(ctx) {
      // The sessions of the partners the recall is for (all, for the agent's whole memory).
      const hearing = ctx.filter?.hearing;
      const about = typeof ctx.filter?.about === "string" ? [ctx.filter.about] : undefined;
      const partners = hearing?.scope === "partner" ? hearing.partners : about;
      const sessions = (await ctx.store.listSessions(ctx.scope)).filter(
        (s) => !partners || s.partners.some((p) => partners.includes(p)),
      );
      const past = new Set(sessions.filter((s) => s.id !== ctx.session?.id).map((s) => s.id));
      const turns = (await ctx.store.listTurns(ctx.scope)).filter((t) => past.has(t.sessionId));
      // Most recent first, so a budget cut keeps what is newest.
      const hits = turns.reverse().map((t, i) => turnHit(t, { recency: i, score: 1 / (i + 1) }));
      return { strategy: "history", query: ctx.query, hits };
    },
    // The budget keeps the newest turns; the reply reads them in order.
    compose: (ctx, recall) => composeReply(ctx, recall, "Earlier sessions", { oldestFirst: true }),
  };
}
