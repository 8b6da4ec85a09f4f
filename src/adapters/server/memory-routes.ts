/**
 * Routes of what an agent remembers: agents, recall, memories, history, timeline, forget, and the
 * caller's corrections (update, restore, add).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { NotFoundError } from "../../core/errors.js";
import { addFactSchema, forgetInputSchema, recallInputSchema, updateInputSchema } from "../../engine/api.js";
import type { ListMemoriesInput } from "../../engine/list/list-inputs.js";
import { commaList, memoriesQuery, metaQueryDoc, newestOf, splitMeta } from "./list-queries.js";
import { answer, errorAnswers, jsonBody, type ServiceEnv, secured } from "./route-kit.js";
import {
  addResultSchema,
  agentParams,
  forgetReportSchema,
  historySchema,
  memoryPageSchema,
  memoryParams,
  memorySchema,
  noQuery,
  recallSchema,
  restoreResultSchema,
  timelineSchema,
  updateResultSchema,
} from "./schemas.js";

const tags = ["memory"];

const listAgents = createRoute({
  operationId: "listAgents",
  method: "get",
  path: "/v1/agents",
  tags,
  summary: "Agents of the key's tenant with stored sessions or memories",
  security: secured,
  request: { query: noQuery },
  responses: { 200: answer(z.object({ agents: z.array(z.string()) }), "the agents"), ...errorAnswers },
});

const recall = createRoute({
  operationId: "recallMemories",
  method: "post",
  path: "/v1/recall",
  tags,
  summary: "What an agent remembers for a query (units: memories or turns), each hit scored per signal",
  security: secured,
  request: {
    query: noQuery,
    ...jsonBody(recallInputSchema, "the query (the engine's RecallInput)", {
      agent: "ava",
      about: "sam",
      query: "Where does Sam work now?",
      k: 5,
      filter: {
        kind: "fact",
        observedAfter: "2024-01-01T00:00:00Z",
        meta: { topic: { in: ["work", "home"] } },
      },
    }),
  },
  responses: { 200: answer(recallSchema, "the hits, best first"), ...errorAnswers },
});

const listMemories = createRoute({
  operationId: "listMemories",
  method: "get",
  path: "/v1/agents/{agent}/memories",
  tags,
  summary: "A page of an agent's memories, oldest learned first (active unless `status` says otherwise)",
  description: `Filters narrow by status, subject, kind, strategy, session, dates and meta. ${metaQueryDoc} A page holds at most \`limit\` memories; pass its \`nextCursor\` as \`cursor\` for the next.`,
  security: secured,
  request: { params: agentParams, query: memoriesQuery },
  responses: {
    200: answer(memoryPageSchema, "the memories, and the cursor of the next page"),
    ...errorAnswers,
  },
});

const getMemory = createRoute({
  operationId: "getMemory",
  method: "get",
  path: "/v1/agents/{agent}/memories/{memoryId}",
  tags,
  summary: "One memory by id, whatever its status (active, superseded)",
  description: "A forgotten memory is erased, so 404, as is another agent's or tenant's id.",
  security: secured,
  request: { params: memoryParams, query: noQuery },
  responses: { 200: answer(z.object({ memory: memorySchema }), "the memory"), ...errorAnswers },
});

const history = createRoute({
  operationId: "getMemoryHistory",
  method: "get",
  path: "/v1/agents/{agent}/memories/{memoryId}/history",
  tags,
  summary: "A memory with every operation on it and what it replaced or was replaced by",
  security: secured,
  request: { params: memoryParams, query: noQuery },
  responses: { 200: answer(historySchema, "the memory's history"), ...errorAnswers },
});

const timeline = createRoute({
  operationId: "getMemoryTimeline",
  method: "get",
  path: "/v1/agents/{agent}/memories/{memoryId}/timeline",
  tags,
  summary: "The memories linked to one and the chain through it, oldest first",
  security: secured,
  request: { params: memoryParams, query: noQuery },
  responses: { 200: answer(timelineSchema, "the memory's timeline"), ...errorAnswers },
});

const forget = createRoute({
  operationId: "forget",
  method: "post",
  path: "/v1/forget",
  tags,
  summary: "Delete for real: memories by id, everything about a subject, or a session",
  description:
    "Every named memory and session must exist in the key's tenant (else 404 and nothing is deleted). The operation log records that a forget happened, never what it erased.",
  security: secured,
  request: {
    query: noQuery,
    ...jsonBody(forgetInputSchema, "what to forget (the engine's ForgetInput)", {
      agent: "ava",
      about: "sam",
    }),
  },
  responses: { 200: answer(forgetReportSchema, "how much was erased"), ...errorAnswers },
});

const update = createRoute({
  operationId: "updateMemory",
  method: "patch",
  path: "/v1/agents/{agent}/memories/{memoryId}",
  tags,
  summary: "Correct an active memory: a new version with this text becomes current, the old one its past",
  description:
    "The new version keeps the memory's subject, kind, strategy, audience, privacy, evidence and conversation time; the old one is superseded (a Supersedes edge from the new) and an UPDATE operation by the caller names both. A memory that is not active is 409, with `details.current` naming the versions that are; nothing changes on any error.",
  security: secured,
  request: {
    params: memoryParams,
    query: noQuery,
    ...jsonBody(updateInputSchema, "the corrected text, and optional meta", {
      text: "Sam works at the city library as an archivist.",
    }),
  },
  responses: {
    200: answer(updateResultSchema, "the new version and the one it superseded"),
    ...errorAnswers,
  },
});

const restore = createRoute({
  operationId: "restoreMemory",
  method: "post",
  path: "/v1/agents/{agent}/memories/{memoryId}/restore",
  tags,
  summary: "Make a superseded memory current again, retiring the versions that hold in its place",
  description:
    "A RESTORE operation by the caller names the memory and what it retired; history shows it on both. An active memory is 409 (`details.reason: already-current`); a forgotten one is erased, so 404.",
  security: secured,
  request: { params: memoryParams, query: noQuery },
  responses: {
    200: answer(restoreResultSchema, "the memory, current again, and what it retired"),
    ...errorAnswers,
  },
});

const add = createRoute({
  operationId: "addMemory",
  method: "post",
  path: "/v1/agents/{agent}/memories",
  tags,
  summary: "Store one fact as given, with no inference",
  description:
    "An active memory dated `at` (default now), with an ADD operation by the caller. It retires nothing, even a memory it contradicts. A fact about a partner is theirs to hear; a sensitive one is private to them.",
  security: secured,
  request: {
    params: agentParams,
    query: noQuery,
    ...jsonBody(addFactSchema, "the fact (the engine's AddFactInput)", {
      about: "sam",
      text: "Sam works at the city library.",
      at: "2024-03-02T18:00:00Z",
    }),
  },
  responses: { 201: answer(addResultSchema, "the stored fact"), ...errorAnswers },
});

/** Registers the memory routes. */
export function memoryRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openapi(listAgents, async (c) => c.json({ agents: await c.var.mem.agents() }, 200));

  app.openapi(recall, async (c) => {
    const found = await c.var.mem.recall(c.req.valid("json"));
    // The hits' full rows stay out: id, text and scores are the answer; history has the rest.
    const hits = found.hits.map(({ memory: _m, turn: _t, ...hit }) => hit);
    return c.json({ ...found, hits }, 200);
  });

  app.openapi(listMemories, async (c) => {
    const { agent } = c.req.valid("param");
    const { rest, meta } = splitMeta(c.req.valid("query"));
    const { status, kind, order, ...others } = rest;
    const page = await c.var.mem.listMemories(agent, {
      ...others,
      newest: newestOf(order),
      status: status === "any" ? "any" : (commaList(status) as ListMemoriesInput["status"]),
      kind: commaList(kind),
      meta,
    });
    return c.json({ memories: page.items, nextCursor: page.nextCursor }, 200);
  });

  app.openapi(getMemory, async (c) => {
    const { agent, memoryId } = c.req.valid("param");
    const memory = await c.var.mem.getMemory(agent, memoryId);
    if (!memory)
      throw new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`, { field: "memoryId" });
    return c.json({ memory }, 200);
  });

  app.openapi(history, async (c) => {
    const { agent, memoryId } = c.req.valid("param");
    return c.json(await c.var.mem.history(agent, memoryId), 200);
  });

  app.openapi(timeline, async (c) => {
    const { agent, memoryId } = c.req.valid("param");
    return c.json(await c.var.mem.timeline(agent, memoryId), 200);
  });

  // Another tenant's or agent's memory id is the facade's NotFoundError: 404.
  app.openapi(update, async (c) => {
    const { agent, memoryId } = c.req.valid("param");
    const { text, meta } = c.req.valid("json");
    return c.json(await c.var.mem.update(agent, memoryId, text, meta === undefined ? {} : { meta }), 200);
  });

  app.openapi(restore, async (c) => {
    const { agent, memoryId } = c.req.valid("param");
    return c.json(await c.var.mem.restore(agent, memoryId), 200);
  });

  app.openapi(add, async (c) => {
    const { agent } = c.req.valid("param");
    return c.json(await c.var.mem.add(agent, c.req.valid("json")), 201);
  });

  // An unknown memory or session (another tenant's included) is the facade's NotFoundError: 404.
  app.openapi(forget, async (c) => c.json(await c.var.mem.forget(c.req.valid("json")), 200));
}
