/**
 * The MCP tools' output schemas: what each tool's `structuredContent` holds, published beside its
 * input schema so a client can read results without parsing text. Objects are open (more fields
 * may come): a client checks what it reads, and a new field must not fail it.
 */
import { z } from "zod";

const memory = z
  .looseObject({
    id: z.string().describe("the memory's id (for get_memory, history, update_memory, forget)"),
    about: z.string().describe("whom it is about: the agent itself or a partner"),
    text: z.string(),
    kind: z.string(),
    status: z.string().describe("active, superseded or forgotten"),
    observedAt: z.string().describe("conversation time it was learned"),
  })
  .describe("a memory");

const operation = z.looseObject({ id: z.string(), type: z.string() }).describe("an operation of the log");

export const rememberOutput = z.looseObject({
  sessionId: z.string().describe("the session the turns were stored in"),
  turns: z.array(z.string()).describe("the stored turns' ids, in order"),
  closed: z
    .boolean()
    .describe("true when the session was closed (and, unless infer: false, is being consolidated)"),
  job: z.string().optional().describe("the consolidation job, when one was queued here"),
  replayed: z.boolean().optional().describe("true when a retry with the same idempotencyKey found it stored"),
});

export const recallOutput = z.looseObject({
  query: z.string(),
  hits: z
    .array(
      z.looseObject({
        id: z.string(),
        text: z.string(),
        about: z.string().optional(),
        observedAt: z.string().optional(),
        status: z.string().optional().describe("current or past"),
      }),
    )
    .describe("best first"),
});

export const timelineOutput = z.looseObject({
  memories: z.array(memory).describe("every memory linked to the one asked about, oldest first"),
  chain: z.array(z.looseObject({})).describe("the chain through it, oldest first"),
});

export const historyOutput = z.looseObject({
  memory,
  operations: z.array(operation),
  replacedBy: z.array(memory),
  replaces: z.array(memory),
  corrections: z.array(z.looseObject({ type: z.string(), text: z.string() })),
});

export const forgetOutput = z.looseObject({
  memories: z.number().int(),
  turns: z.number().int(),
  sessions: z.number().int(),
});

export const listOutput = z.looseObject({
  memories: z.array(memory).describe("newest first"),
  nextCursor: z.string().nullable().describe("the cursor of the next page; null on the last"),
});

export const turnOutput = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  index: z.number(),
  speaker: z.string(),
  text: z.string(),
  at: z.string(),
});

export const getOutput = memory;

export const updateOutput = z.looseObject({ memory, superseded: memory, operation });

export const restoreOutput = z.looseObject({ memory, retired: z.array(memory), operation });

export const addOutput = z.looseObject({ memory, operation });

export const sessionListOutput = z.looseObject({
  sessions: z
    .array(
      z.looseObject({
        id: z.string().describe("the session's id (for list_turns, forget)"),
        partners: z.array(z.string()).describe("who the agent talked with"),
        at: z.string().describe("conversation time it took place"),
        status: z.string().describe("open, closed, consolidated or failed"),
        strategy: z.string(),
      }),
    )
    .describe("in the list's order: oldest first, or newest first when asked"),
  nextCursor: z.string().nullable().describe("the cursor of the next page; null on the last"),
});

export const turnListOutput = z.looseObject({
  turns: z.array(turnOutput).describe("in the list's order: oldest first, or newest first when asked"),
  nextCursor: z.string().nullable().describe("the cursor of the next page; null on the last"),
});
