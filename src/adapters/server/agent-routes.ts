/**
 * Routes that read an agent's whole scope at once, for the web inspector and other dashboards:
 * a summary (partners and counts), the memory graph (memories and the edges between them), and
 * the operation log and the edges. Everything is read through the key's tenant view, like every other route.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { NotFoundError } from "../../core/errors.js";
import type { ListEdgesInput } from "../../engine/list/list-inputs.js";
import { commaList, edgesQuery, newestOf, operationsQuery } from "./list-queries.js";
import { answer, errorAnswers, type ServiceEnv, secured } from "./route-kit.js";
import {
  agentParams,
  agentSummarySchema,
  edgePageSchema,
  graphQuery,
  graphSchema,
  noQuery,
  operationPageSchema,
} from "./schemas.js";

const tags = ["inspect"];

/** How many operations the log returns when the request does not say. */
const DEFAULT_LOG_LIMIT = 200;

const summary = createRoute({
  operationId: "getAgent",
  method: "get",
  path: "/v1/agents/{agent}",
  tags,
  summary: "An agent's partners and how many sessions, turns, memories, edges and operations it holds",
  security: secured,
  request: { params: agentParams, query: noQuery },
  responses: { 200: answer(agentSummarySchema, "the agent's summary"), ...errorAnswers },
});

const graph = createRoute({
  operationId: "getGraph",
  method: "get",
  path: "/v1/agents/{agent}/graph",
  tags,
  summary: "The memory graph: memories and the edges between them (relations, links, supersessions, fusions)",
  security: secured,
  request: { params: agentParams, query: graphQuery },
  responses: { 200: answer(graphSchema, "the memories and their edges"), ...errorAnswers },
});

const operations = createRoute({
  operationId: "listOperations",
  method: "get",
  path: "/v1/agents/{agent}/operations",
  tags,
  summary: "The operation log, newest first: every change and thinking step with its rationale",
  description:
    "Filters narrow by status, type, session, memory and time (`after`, `before`); `order=oldest` reads the log oldest first. A page holds at most `limit` operations; pass its `nextCursor` as `cursor` for the next.",
  security: secured,
  request: { params: agentParams, query: operationsQuery },
  responses: {
    200: answer(operationPageSchema, "the operations, newest first, and the cursor of the next page"),
    ...errorAnswers,
  },
});

const edges = createRoute({
  operationId: "listEdges",
  method: "get",
  path: "/v1/agents/{agent}/edges",
  tags,
  summary: "A page of the edges between an agent's memories (versions, relations, links), oldest first",
  description:
    "Filters narrow to one memory's edges (either end) and to types (comma-separated). Pass a page's `nextCursor` as `cursor` for the next.",
  security: secured,
  request: { params: agentParams, query: edgesQuery },
  responses: { 200: answer(edgePageSchema, "the edges, and the cursor of the next page"), ...errorAnswers },
});

const countBy = <T>(items: T[], key: (item: T) => string): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

/** Registers the scope-wide read routes. */
export function agentRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openapi(summary, async (c) => {
    const { agent } = c.req.valid("param");
    const mem = c.var.mem;
    // An agent this tenant has never stored anything for does not exist here (another tenant's
    // agent of the same name included): 404, as for any other id.
    if (!(await mem.agents()).includes(agent))
      throw new NotFoundError(`No agent "${agent}"`, { field: "agent" });
    const stats = await mem.stats(agent);
    const sessions = await mem.sessions(agent);
    const partners = [...new Set(sessions.flatMap((s) => s.partners))].sort();
    // Sessions come oldest first; a strategy moves to the end each time it is seen again.
    const strategies = new Set<string>();
    for (const s of sessions) {
      strategies.delete(s.strategy);
      strategies.add(s.strategy);
    }
    return c.json(
      {
        agent,
        partners,
        strategies: [...strategies],
        sessions: countBy(sessions, (s) => s.status),
        turns: stats.turns,
        memories: stats.memories,
        edges: stats.edges,
        operations: stats.operations,
        failures: (await mem.failures(agent)).length,
      },
      200,
    );
  });

  app.openapi(graph, async (c) => {
    const { agent } = c.req.valid("param");
    const { status } = c.req.valid("query");
    const mem = c.var.mem;
    const memories = await mem.memories(agent, { status: status ?? "any" });
    const ids = new Set(memories.map((m) => m.id));
    // Only edges between shown memories: a node-less edge would make a graph library throw.
    const edges = (await mem.edges(agent)).filter((e) => ids.has(e.from) && ids.has(e.to));
    return c.json({ memories, edges }, 200);
  });

  app.openapi(operations, async (c) => {
    const { agent } = c.req.valid("param");
    const { order, limit, ...filter } = c.req.valid("query");
    // A page read as such: the agent's whole log is never loaded for a page of it.
    const page = await c.var.mem.listOperations(agent, {
      ...filter,
      limit: limit ?? DEFAULT_LOG_LIMIT,
      newest: order !== "oldest",
    });
    return c.json({ operations: page.items, nextCursor: page.nextCursor }, 200);
  });

  app.openapi(edges, async (c) => {
    const { agent } = c.req.valid("param");
    const { type, order, ...rest } = c.req.valid("query");
    const type_ = commaList(type) as ListEdgesInput["type"];
    const page = await c.var.mem.listEdges(agent, { ...rest, type: type_, newest: newestOf(order) });
    return c.json({ edges: page.items, nextCursor: page.nextCursor }, 200);
  });
}
