/** CareCall's "without memory" baseline: nothing is written, nothing recalled. */

import { composeReply } from "../kit/compose-reply.js";
import type { Strategy } from "../strategy.js";

export function noneStrategy(): Strategy {
  return {
    specificationVersion: "v1",
    name: "none",
    description: "no long-term memory: replies see only the current session",
    async recall(ctx) {
      return { strategy: "none", query: ctx.query, hits: [] };
    },
    compose: (ctx, recall) => composeReply(ctx, recall),
  };
}
