/** The one-call write over REST: a whole exchange stored as one session, in one request. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { messagesBodySchema } from "../../engine/messages/message-schemas.js";
import { consolidationJobNow } from "./consolidation-jobs.js";
import { answer, errorAnswers, failure, jsonBody, type ServiceEnv, secured } from "./route-kit.js";
import { agentParams, jobSchema, noQuery, sessionSchema, turnSchema } from "./schemas.js";

/** What the messages route answers, the first time and to a retry alike. */
export const messagesResultSchema = z
  .object({
    session: sessionSchema,
    turns: z.array(turnSchema).describe("one per message, in order"),
    job: jobSchema
      .nullable()
      .describe("the session's consolidation (read it at /v1/jobs/{jobId}); null with infer: false"),
    replayed: z
      .boolean()
      .describe("true when this answers a retry: the first call with the key stored it all"),
  })
  .openapi("MessagesResult");

/** The `Idempotency-Key` header (headers arrive lower-cased); any other header passes. */
const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      "makes the call safe to retry: a call with a key already used stores nothing twice and answers as the first did (200, replayed: true), finishing it first if it was cut short part-way; kept in the store, so it holds across restarts and replicas",
    ),
});

const addMessages = createRoute({
  operationId: "addMessages",
  method: "post",
  path: "/v1/agents/{agent}/messages",
  tags: ["sessions"],
  summary: "Store a whole exchange in one call, as one session, and consolidate it",
  description:
    "Each message is OpenAI-style (`role` user: the partner, assistant: the agent; `content`) or names its `speaker` and `text`. The messages become the turns of one new session of the agent with the partner (heard by that partner only), closed and consolidated in the background; with `infer: false` they are kept as given and nothing is inferred. Every message is checked first: a bad one stores nothing (400). Send an `Idempotency-Key` to retry safely: a retry of a call that completed answers 200 with its result; a retry of one cut short part-way (a killed server; for strategies with per-turn work the messages are stored one by one) stores the messages still missing, closes, and answers 200 as the first call would have; a retry while the first call is still storing is a 409 with `Retry-After`, `error.details.retryable: true`.",
  security: secured,
  request: {
    params: agentParams,
    query: noQuery,
    headers: idempotencyHeaders,
    ...jsonBody(messagesBodySchema, "the partner and the messages, oldest first", {
      partner: "sam",
      messages: [
        { role: "user", content: "I adopted a beagle called Biscuit." },
        { role: "assistant", content: "What a lovely name! How old is Biscuit?" },
      ],
    }),
  },
  responses: {
    201: answer(messagesResultSchema, "the stored session and turns, and the queued consolidation"),
    200: answer(
      messagesResultSchema,
      "a retry's answer: what the first call with the key stored, finished by this retry if it was cut short",
    ),
    ...errorAnswers,
    409: failure(
      "CONFLICT: the Idempotency-Key was used for another request, or its session holds turns that are not this request's first messages (`error.field` idempotencyKey; use a new key or forget the session); or the first call with the key is still storing (`details.retryable` true: send it again after `Retry-After` seconds)",
    ),
  },
});

/** Registers the messages route. */
export function messageRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openapi(addMessages, async (c) => {
    const { agent } = c.req.valid("param");
    const body = c.req.valid("json");
    const key = c.req.valid("header")["idempotency-key"];
    const mem = c.var.mem;
    const result = await mem.add({ agent, ...body, ...(key === undefined ? {} : { idempotencyKey: key }) });
    // The job's id names the session, so a retry on any replica answers the same job.
    const job = body.infer === false ? null : await consolidationJobNow(mem, agent, result.session.id);
    const { session, turns, replayed } = result;
    return c.json({ session, turns, job, replayed }, replayed ? 200 : 201);
  });
}
