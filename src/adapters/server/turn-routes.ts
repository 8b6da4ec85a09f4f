/** Routes of an agent's turns: a page of them across sessions, and one by id. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { NotFoundError } from "../../core/errors.js";
import { metaQueryDoc, newestOf, splitMeta, turnsQuery } from "./list-queries.js";
import { answer, errorAnswers, type ServiceEnv, secured } from "./route-kit.js";
import { agentParams, noQuery, turnPageSchema, turnParams, turnSchema } from "./schemas.js";

const tags = ["sessions"];

const listTurns = createRoute({
  operationId: "listTurns",
  method: "get",
  path: "/v1/agents/{agent}/turns",
  tags,
  summary: "A page of an agent's turns in conversation time, across its sessions",
  description: `Filters narrow by session, speaker, time (\`after\`, \`before\`) and meta. ${metaQueryDoc} Pass a page's \`nextCursor\` as \`cursor\` for the next.`,
  security: secured,
  request: { params: agentParams, query: turnsQuery },
  responses: { 200: answer(turnPageSchema, "the turns, and the cursor of the next page"), ...errorAnswers },
});

const getTurn = createRoute({
  operationId: "getTurn",
  method: "get",
  path: "/v1/agents/{agent}/turns/{turnId}",
  tags,
  summary: "One turn by id",
  description: "Another agent's or tenant's turn, or a forgotten one, is 404.",
  security: secured,
  request: { params: turnParams, query: noQuery },
  responses: { 200: answer(z.object({ turn: turnSchema }), "the turn"), ...errorAnswers },
});

/** Registers the turn routes. */
export function turnRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openapi(listTurns, async (c) => {
    const { agent } = c.req.valid("param");
    const { rest, meta } = splitMeta(c.req.valid("query"));
    const { order, ...filter } = rest;
    const page = await c.var.mem.listTurns(agent, { ...filter, meta, newest: newestOf(order) });
    return c.json({ turns: page.items, nextCursor: page.nextCursor }, 200);
  });

  app.openapi(getTurn, async (c) => {
    const { agent, turnId } = c.req.valid("param");
    const turn = await c.var.mem.getTurn(agent, turnId);
    if (!turn) throw new NotFoundError(`No turn "${turnId}" for agent "${agent}"`, { field: "turnId" });
    return c.json({ turn }, 200);
  });
}
