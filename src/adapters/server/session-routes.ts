/** Routes of live sessions: start, list, read, add turns, reply, close. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { NotFoundError } from "../../core/errors.js";
import { sessionInputSchema, turnInputSchema } from "../../engine/api.js";
import type { ListSessionsInput } from "../../engine/list/list-inputs.js";
import { turnListSchema } from "../../engine/session/session-handle.js";
import { consolidationJob, consolidationJobNow } from "./consolidation-jobs.js";
import { commaList, metaQueryDoc, newestOf, sessionsQuery, splitMeta } from "./list-queries.js";
import { answer, errorAnswers, jsonBody, type ServiceEnv, secured } from "./route-kit.js";
import {
  agentParams,
  jobSchema,
  noQuery,
  replyBody,
  replySchema,
  sessionPageSchema,
  sessionParams,
  sessionSchema,
  turnSchema,
} from "./schemas.js";

const tags = ["sessions"];

const startSession = createRoute({
  operationId: "startSession",
  method: "post",
  path: "/v1/sessions",
  tags,
  summary: "Start a session of an agent with one partner or several",
  security: secured,
  request: {
    query: noQuery,
    ...jsonBody(sessionInputSchema, "the session (the engine's SessionInput)", {
      agent: "ava",
      partner: "sam",
      at: "2024-03-02T18:00:00Z",
    }),
  },
  responses: { 201: answer(sessionSchema, "the stored session, open"), ...errorAnswers },
});

const listSessions = createRoute({
  operationId: "listSessions",
  method: "get",
  path: "/v1/agents/{agent}/sessions",
  tags,
  summary: "An agent's sessions, oldest first; `?status=open` lists the ones never closed",
  description: `An open session that was abandoned is ended with the close route (one with no turns ends with nothing to consolidate) or discarded with \`POST /v1/forget\` and its \`sessionId\`. Filters narrow by status, partner, strategy, time (\`after\`, \`before\`) and meta. ${metaQueryDoc} A page holds at most \`limit\` sessions; pass its \`nextCursor\` as \`cursor\` for the next.`,
  security: secured,
  request: { params: agentParams, query: sessionsQuery },
  responses: {
    200: answer(sessionPageSchema, "the sessions, and the cursor of the next page"),
    ...errorAnswers,
  },
});

const readSession = createRoute({
  operationId: "getSession",
  method: "get",
  path: "/v1/agents/{agent}/sessions/{sessionId}",
  tags,
  summary: "A session with its turns",
  security: secured,
  request: { params: sessionParams, query: noQuery },
  responses: {
    200: answer(
      z.object({ session: sessionSchema, turns: z.array(turnSchema) }),
      "the session and its turns",
    ),
    ...errorAnswers,
  },
});

const addTurn = createRoute({
  operationId: "addTurn",
  method: "post",
  path: "/v1/agents/{agent}/sessions/{sessionId}/turns",
  tags,
  summary: "Record one utterance of an open session, or several in order",
  description:
    "The speaker must be the agent or a partner present. With perTurn `wait` (default) it answers once the strategy's per-turn work has landed with the turn. Given an array, every turn is checked before any is stored: a bad one stores none (400, `error.field` such as `1.speaker`), and the answer is `{ turns }`.",
  security: secured,
  request: {
    params: sessionParams,
    query: noQuery,
    ...jsonBody(
      z.union([turnInputSchema, turnListSchema]),
      "the turn (the engine's TurnInput), or an array of turns, oldest first",
      { speaker: "sam", text: "I started a new job at the city library." },
    ),
  },
  responses: {
    201: answer(
      z.union([turnSchema, z.object({ turns: z.array(turnSchema) })]),
      "the stored turn, or `{ turns }` for an array",
    ),
    ...errorAnswers,
  },
});

const reply = createRoute({
  operationId: "reply",
  method: "post",
  path: "/v1/agents/{agent}/sessions/{sessionId}/reply",
  tags,
  summary: "The agent's next utterance, grounded in what it recalls",
  security: secured,
  request: {
    params: sessionParams,
    query: noQuery,
    ...jsonBody(replyBody, "what to recall for, and whether to record", { query: "Where does Sam work?" }),
  },
  responses: { 200: answer(replySchema, "the reply, its recall and the stored turn"), ...errorAnswers },
});

const closeSession = createRoute({
  operationId: "closeSession",
  method: "post",
  path: "/v1/agents/{agent}/sessions/{sessionId}/close",
  tags,
  summary: "End a session and queue its consolidation",
  description:
    "Answers at once with the consolidation job; read it at /v1/jobs/{jobId}. A session with no turns ends with nothing to consolidate: its job is already `done`.",
  security: secured,
  // No body is declared: clients send close with `content-type: application/json` and an empty
  // body, which a declared JSON body would refuse as malformed.
  request: { params: sessionParams, query: noQuery },
  responses: { 202: answer(z.object({ job: jobSchema }), "the queued consolidation job"), ...errorAnswers },
});

/** Registers the session routes. */
export function sessionRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openapi(startSession, async (c) => {
    const handle = await c.var.mem.session(c.req.valid("json"));
    return c.json(handle.session, 201);
  });

  app.openapi(listSessions, async (c) => {
    const { agent } = c.req.valid("param");
    const mem = c.var.mem;
    const { rest, meta } = splitMeta(c.req.valid("query"));
    const { status, order, ...others } = rest;
    const status_ = commaList(status) as ListSessionsInput["status"];
    const page = await mem.listSessions(agent, { ...others, status: status_, meta, newest: newestOf(order) });
    return c.json({ sessions: page.items, nextCursor: page.nextCursor }, 200);
  });

  app.openapi(readSession, async (c) => {
    const { agent, sessionId } = c.req.valid("param");
    const mem = c.var.mem;
    const session = await mem.getSession(agent, sessionId);
    if (!session)
      throw new NotFoundError(`No session "${sessionId}" for agent "${agent}"`, { field: "sessionId" });
    return c.json({ session, turns: await mem.turns(agent, { sessionId }) }, 200);
  });

  app.openapi(addTurn, async (c) => {
    const { agent, sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const handle = await c.var.mem.resume(agent, sessionId);
    if (Array.isArray(body)) return c.json({ turns: await handle.addTurns(body) }, 201);
    const { speaker, text, ...options } = body;
    return c.json(await handle.turn(speaker, text, options), 201);
  });

  app.openapi(reply, async (c) => {
    const { agent, sessionId } = c.req.valid("param");
    const handle = await c.var.mem.resume(agent, sessionId);
    const { text, recall, turn } = await handle.reply(c.req.valid("json"));
    const hits = recall.hits.map(({ memory: _m, turn: _t, ...hit }) => hit);
    return c.json({ text, recall: { ...recall, hits }, turn }, 200);
  });

  app.openapi(closeSession, async (c) => {
    const { agent, sessionId } = c.req.valid("param");
    // A close whose queueing failed left the session closed with no job: closing again queues it.
    const { job, done } = await c.var.mem.closeSession(agent, sessionId);
    // The outcome is read from the job; a failed consolidation is recorded for retry, not thrown here.
    done.catch(() => {});
    // A session with no turns ended with nothing to do: its job, as the store tells it, is done.
    const answered = job ? consolidationJob(job) : await consolidationJobNow(c.var.mem, agent, sessionId);
    return c.json({ job: answered! }, 202);
  });
}
