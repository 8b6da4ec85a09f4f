/**
 * The shapes of the service's paths and answers, for the OpenAPI document and for typed
 * handlers. Request bodies are the engine's own input schemas (engine/api.ts); only what the
 * engine has no schema for (paths, queries, answers) is declared here.
 */
import { z } from "@hono/zod-openapi";
import { idSchema, unknownFields } from "../../engine/api.js";

const record = z.record(z.string(), z.unknown());

// Path parameters take their names from these keys. The engine's schemas were made before zod was
// extended for OpenAPI, so they carry no `.openapi()`: descriptions go through `.describe()`.
export const agentParams = z.object({ agent: idSchema.describe("whose memory") });
export const sessionParams = agentParams.extend({ sessionId: idSchema.describe("the session's id") });
export const memoryParams = agentParams.extend({ memoryId: idSchema.describe("the memory's id") });
export const turnParams = agentParams.extend({ turnId: idSchema.describe("the turn's id") });
export const jobParams = z.object({ jobId: z.string().min(1).describe("the job's id") });

/**
 * The query of a route that reads none. Declared all the same so a parameter the route does not
 * know (`?user_id=sam`) is refused rather than ignored: the caller believes it narrowed the call.
 */
export const noQuery = z.strictObject({}, unknownFields);

export const replyBody = z.strictObject(
  {
    query: z.string().min(1).optional().describe("what to recall for, instead of the latest partner turn"),
    record: z.boolean().optional().describe("store the reply as the agent's turn (default true)"),
  },
  unknownFields,
);

export const retryBody = z.strictObject(
  {
    sessionId: idSchema.optional().describe("only this session (an open one is closed and consolidated)"),
    open: z.boolean().optional().describe("also close and consolidate every open session holding turns"),
  },
  unknownFields,
);

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().describe("INVALID_INPUT, NOT_FOUND, CONFLICT, UNAUTHORIZED, PAYLOAD_TOO_LARGE…"),
      message: z.string(),
      field: z.string().optional().describe("the offending input field, when one is to blame"),
      details: record.optional(),
    }),
  })
  .openapi("Error");

export const sessionSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    agent: z.string(),
    partners: z.array(z.string()),
    at: z.string(),
    status: z.enum(["open", "closed", "consolidated", "failed"]),
    strategy: z.string(),
    meta: record,
    recordedAt: z.string(),
  })
  .openapi("Session");

export const turnSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    agent: z.string(),
    sessionId: z.string(),
    index: z.number().int(),
    speaker: z.string(),
    text: z.string(),
    at: z.string(),
    meta: record,
  })
  .openapi("Turn");

export const memorySchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    agent: z.string(),
    about: z.string(),
    text: z.string(),
    kind: z.string(),
    strategy: z.string(),
    observedAt: z.string(),
    recordedAt: z.string(),
    status: z.enum(["active", "superseded", "forgotten"]),
    invalidAt: z.string().nullable(),
    sessionId: z.string().nullable(),
    sourceTurns: z.array(z.string()),
    attributes: record,
  })
  .openapi("Memory");

export const edgeSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    agent: z.string(),
    from: z.string(),
    to: z.string(),
    type: z.string(),
    attributes: record,
    recordedAt: z.string(),
  })
  .openapi("Edge");

const usageSchema = z.object({
  calls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  latencyMs: z.number(),
});

export const operationSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    agent: z.string(),
    type: z.string(),
    status: z.enum(["done", "failed"]),
    strategy: z.string(),
    model: z.string(),
    sessionId: z.string().nullable(),
    memoryIds: z.array(z.string()),
    inputs: z.unknown(),
    outputs: z.unknown(),
    rationale: z.string().nullable(),
    error: z.string().nullable(),
    usage: usageSchema,
    at: z.string(),
    recordedAt: z.string(),
  })
  .openapi("Operation");

const versionSchema = z.object({
  id: z.string(),
  text: z.string(),
  observedAt: z.string(),
  invalidAt: z.string().optional(),
  status: z.enum(["current", "past"]),
  replacedBy: z.array(z.string()).optional().describe("the versions that directly replaced this one"),
});

export const hitSchema = z
  .object({
    kind: z.enum(["memory", "turn"]),
    id: z.string(),
    text: z.string(),
    about: z.string().describe("the memory's subject, or the turn's speaker"),
    score: z.number(),
    observedAt: z.string(),
    sessionId: z.string().nullable(),
    sourceTurns: z.array(z.string()),
    explanation: z.record(z.string(), z.number()).describe("each ranking signal's score"),
    status: z.enum(["current", "past"]).optional(),
    chain: z.array(versionSchema).optional(),
  })
  .openapi("RecallHit");

const timelineEntrySchema = z.object({
  id: z.string(),
  text: z.string(),
  at: z.string(),
  relation: z.string().nullable(),
});

export const recallSchema = z
  .object({
    strategy: z.string(),
    query: z.string(),
    hits: z.array(hitSchema),
    timelines: z
      .array(
        z.object({
          through: z.string(),
          entries: z.array(timelineEntrySchema),
          refined: z.array(z.string()).optional(),
        }),
      )
      .optional(),
    temporal: z.enum(["past", "still"]).optional(),
    usage: usageSchema.optional(),
    setting: z
      .array(z.string())
      .optional()
      .describe(
        "what the reply is told about the conversation itself (EMMA: the session's number, everyone's role)",
      ),
    standing: z
      .array(hitSchema)
      .optional()
      .describe(
        "standing instructions and preferences of the people asked about, newest first (at most 8): asked once, meant for every later answer",
      ),
    failures: z
      .array(
        z.object({
          step: z.string(),
          stepVersion: z.number(),
          fallback: z.string().describe("what stood in for the answer"),
          input: z.unknown().optional(),
          code: z.string(),
          error: z.string(),
          attempts: z.unknown(),
          usage: usageSchema,
          model: z.string(),
        }),
      )
      .optional()
      .describe("steps of the recall whose answer could not be used, each with the fallback it took"),
  })
  .openapi("Recall");

const correctionNoteSchema = z
  .object({
    operation: z.string().describe("the operation's id"),
    type: z.enum(["UPDATE", "RESTORE", "ADD"]),
    at: z.string().describe("when the caller made it"),
    text: z
      .string()
      .describe('one sentence: "updated by the caller on …", "restored on …", "added by the caller on …"'),
  })
  .openapi("CorrectionNote");

export const historySchema = z
  .object({
    memory: memorySchema,
    operations: z.array(operationSchema),
    replacedBy: z.array(memorySchema),
    replaces: z.array(memorySchema),
    edges: z.array(edgeSchema),
    corrections: z
      .array(correctionNoteSchema)
      .describe("the caller's corrections of this memory, oldest first"),
  })
  .openapi("History");

export const updateResultSchema = z
  .object({
    memory: memorySchema.describe("the new current version"),
    superseded: memorySchema.describe("the version it replaced, kept as its past"),
    operation: operationSchema.describe("the UPDATE operation, made by the caller"),
  })
  .openapi("UpdateResult");

export const restoreResultSchema = z
  .object({
    memory: memorySchema.describe("the memory, current again"),
    retired: z.array(memorySchema).describe("the versions that held in its place, now past"),
    operation: operationSchema.describe("the RESTORE operation, made by the caller"),
  })
  .openapi("RestoreResult");

export const addResultSchema = z
  .object({
    memory: memorySchema.describe("the stored fact, active"),
    operation: operationSchema.describe("the ADD operation, made by the caller"),
  })
  .openapi("AddResult");

export const timelineSchema = z
  .object({
    memories: z.array(memorySchema),
    edges: z.array(edgeSchema),
    chain: z.array(timelineEntrySchema),
  })
  .openapi("Timeline");

export const forgetReportSchema = z
  .object({
    memories: z.number(),
    edges: z.number(),
    operations: z.number(),
    embeddings: z.number(),
    turns: z.number(),
    sessions: z.number(),
    redacted: z.number(),
  })
  .openapi("ForgetReport");

export const ingestReportSchema = z.object({
  agent: z.string(),
  sessions: z.number(),
  ingested: z.number(),
  skipped: z.number(),
  resumed: z.number(),
  failed: z.number(),
  notAttempted: z.number(),
  stopped: z.string().optional(),
  failures: z.array(z.object({ sessionId: z.string(), code: z.string(), error: z.string() })),
  turns: z.number(),
  elapsedMs: z.number(),
});

export const jobSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["consolidate", "ingest"]),
    state: z.enum(["queued", "running", "done", "failed"]),
    agent: z.string().optional().describe("consolidation jobs: whose session"),
    sessionId: z.string().optional().describe("consolidation jobs: which session"),
    error: z.string().optional(),
    queuedAt: z.string(),
    finishedAt: z.string().optional(),
    position: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("a queued job: where it stands in the line as things stand (1 runs next)"),
    reports: z.array(ingestReportSchema).optional().describe("ingest jobs, once done: one per transcript"),
  })
  .openapi("Job");

export const retryReportSchema = z
  .object({
    turns: z.array(z.object({ op: z.string(), ok: z.boolean() })),
    jobs: z.array(jobSchema),
    steps: z.array(z.object({ op: z.string(), ok: z.boolean() })),
  })
  .openapi("RetryReport");

export const replySchema = z
  .object({ text: z.string(), recall: recallSchema, turn: turnSchema.nullable() })
  .openapi("Reply");

// What the inspector reads of a whole scope (agent-routes.ts).

export const graphQuery = z.strictObject(
  {
    status: z
      .enum(["active", "superseded", "forgotten", "any"])
      .optional()
      .describe("which memories are nodes; default any, so supersessions show"),
  },
  unknownFields,
);

export const agentSummarySchema = z
  .object({
    agent: z.string(),
    partners: z.array(z.string()).describe("everyone the agent has had a session with"),
    strategies: z
      .array(z.string())
      .describe("the strategies of the agent's sessions, the most recently used last"),
    sessions: z.record(z.string(), z.number()).describe("sessions by status"),
    turns: z.number(),
    memories: z.record(z.string(), z.number()).describe("memories by status"),
    edges: z.number(),
    operations: z.record(z.string(), z.number()).describe("operations by `TYPE:status`"),
    failures: z.number().describe("failed work waiting for a retry"),
  })
  .openapi("AgentSummary");

export const graphSchema = z
  .object({
    memories: z.array(memorySchema),
    edges: z.array(edgeSchema).describe("edges whose two ends are both among the memories"),
  })
  .openapi("MemoryGraph");

const nextCursor = z
  .string()
  .nullable()
  .describe("the `cursor` of the next page (same filters); null on the last page");

export const memoryPageSchema = z
  .object({ memories: z.array(memorySchema), nextCursor })
  .openapi("MemoryPage");
export const sessionPageSchema = z
  .object({ sessions: z.array(sessionSchema), nextCursor })
  .openapi("SessionPage");
export const turnPageSchema = z.object({ turns: z.array(turnSchema), nextCursor }).openapi("TurnPage");
export const operationPageSchema = z
  .object({ operations: z.array(operationSchema), nextCursor })
  .openapi("OperationPage");
export const edgePageSchema = z.object({ edges: z.array(edgeSchema), nextCursor }).openapi("EdgePage");
