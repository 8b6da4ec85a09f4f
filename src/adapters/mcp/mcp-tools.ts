/**
 * memlane as MCP tools (the official TypeScript SDK): remember, recall, timeline, history, forget,
 * list_memories, and the caller's corrections (update_memory, restore_memory, add_memory), over
 * one tenant's view of the engine. Inputs are the engine's own schemas
 * where it has them (recall, forget), every field described; read-only tools say so; answers are
 * JSON text; a typed error (an unknown id included: NOT_FOUND, as REST's 404) is a tool error
 * naming its code and field, so the calling agent can correct itself.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isMemlaneError } from "../../core/errors.js";
import {
  addFactSchema,
  forgetInputSchema,
  idSchema,
  parseInput,
  recallInputSchema,
  turnTextSchema,
  unknownFields,
  updateInputSchema,
} from "../../engine/api.js";
import type { Memlane } from "../../engine/memlane.js";
import { remember } from "../../engine/remember.js";
import { MCP_TOOLS } from "./tool-names.js";

export { MCP_TOOLS };

const rememberInput = z
  .strictObject(
    {
      agent: idSchema.describe("whose memory (the assistant's id, e.g. 'assistant')"),
      partner: idSchema.describe("who the agent is talking with (the user's id)"),
      turns: z
        .array(
          z.strictObject(
            {
              speaker: idSchema.describe("the agent or the partner"),
              text: turnTextSchema.min(1),
              at: z.string().optional().describe("when it was said (ISO-8601); default now"),
            },
            unknownFields,
          ),
        )
        .min(1)
        .optional()
        .describe("utterances, oldest first"),
      fact: turnTextSchema
        .min(1)
        .optional()
        .describe("one thing the partner said or told about themselves, e.g. 'I moved to Oslo in May'"),
      sessionId: idSchema
        .optional()
        .describe("an open session to add to (from an earlier call with close: false); default a new one"),
      at: z.string().optional().describe("when the session took place (ISO-8601); default now"),
      close: z
        .boolean()
        .optional()
        .describe("close the session so it is consolidated into memories (default true)"),
    },
    unknownFields,
  )
  .refine((r) => r.turns !== undefined || r.fact !== undefined, {
    message: "remember needs `turns` or a `fact`",
    path: ["turns"],
  });

const memoryRef = z.strictObject(
  {
    agent: idSchema.describe("whose memory"),
    memoryId: idSchema.describe("a memory id from recall or list_memories"),
  },
  unknownFields,
);

const updateInput = z.strictObject(
  {
    agent: idSchema.describe("whose memory"),
    memoryId: idSchema.describe("the id of an active memory (from recall or list_memories)"),
    ...updateInputSchema.shape,
  },
  unknownFields,
);

const addInput = z.strictObject(
  { agent: idSchema.describe("whose memory"), ...addFactSchema.shape },
  unknownFields,
);

const listInput = z.strictObject(
  {
    agent: idSchema.describe("whose memory"),
    about: idSchema.optional().describe("only memories about this subject (the agent itself or a partner)"),
    status: z
      .enum(["active", "superseded", "any"])
      .optional()
      .describe("active (default): what holds now; superseded: past versions; any: both"),
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .describe("at most this many, newest first (default 50)"),
  },
  unknownFields,
);

/**
 * What a tool hands the SDK as its input schema: the tool's own JSON schema (strict, every field
 * described) over a parser that lets every object through. The SDK would otherwise refuse a bad
 * input itself, in a message of its own; parsing in the tool (`strictTool`) makes a bad field
 * read as every other memlane error does, `INVALID_INPUT (field: …)`, so the calling agent can
 * correct itself.
 */
function published(schema: z.ZodType): z.ZodObject {
  // A top-level anyOf (recall's "about or scope: agent", forget's "one of three") is refused by
  // some model APIs in a tool's schema; the tool's own parsing still holds to it, and the field
  // descriptions say it.
  const { $schema: _, anyOf: __, ...json } = z.toJSONSchema(schema, { io: "input" });
  return z.object({}).catchall(z.unknown()).meta(json);
}

/** A tool's callback, given its input parsed with `schema` (an InvalidInputError when it does not fit). */
function strictTool<S extends z.ZodType>(
  tool: string,
  schema: S,
  fn: (input: z.output<S>) => Promise<unknown>,
): (input: unknown) => Promise<CallToolResult> {
  return (input) => run(() => fn(parseInput(schema, input, `${tool} input`)));
}

/**
 * An MCP server whose tools read and write `mem`'s tenant only. Connect it to a transport: stdio
 * for `memlane mcp`, streamable HTTP at `/mcp` of `memlane serve`, or the SDK's in-memory pair.
 * @example const server = createMcpServer(mem.tenant("acme")); await server.connect(new StdioServerTransport());
 */
export function createMcpServer(mem: Memlane): McpServer {
  const server = new McpServer({ name: "memlane", version: "0.1.0" });

  server.registerTool(
    "remember",
    {
      title: "Remember",
      description:
        "Store what was said in a conversation (turns, or one fact the partner told) so it is remembered later. By default the session is closed and consolidated into memories in the background; pass close: false and the returned sessionId to keep adding turns.",
      inputSchema: published(rememberInput),
    },
    strictTool("remember", rememberInput, (input) => remember(mem, input)),
  );

  server.registerTool(
    "recall",
    {
      title: "Recall",
      description:
        "Search what the agent remembers for a question, best first, each hit with its id, text, subject, date and status (current or past). Use before answering anything that depends on earlier conversations.",
      inputSchema: published(recallInputSchema),
      annotations: { readOnlyHint: true },
    },
    strictTool("recall", recallInputSchema, async (input) => {
      const found = await mem.recall(input);
      return {
        ...found,
        hits: found.hits.map(({ memory: _m, turn: _t, explanation: _e, ...hit }) => hit),
      };
    }),
  );

  server.registerTool(
    "timeline",
    {
      title: "Timeline",
      description:
        "How a remembered fact changed over time: the memories linked to one, and the chain through it, oldest first.",
      inputSchema: published(memoryRef),
      annotations: { readOnlyHint: true },
    },
    strictTool("timeline", memoryRef, ({ agent, memoryId }) => mem.timeline(agent, memoryId)),
  );

  server.registerTool(
    "history",
    {
      title: "History",
      description:
        "Why a memory is as it is: every operation on it with its rationale, and what it replaced or was replaced by.",
      inputSchema: published(memoryRef),
      annotations: { readOnlyHint: true },
    },
    strictTool("history", memoryRef, ({ agent, memoryId }) => mem.history(agent, memoryId)),
  );

  server.registerTool(
    "forget",
    {
      title: "Forget",
      description:
        "Delete for real: memories by id, everything about a subject, or a whole session. Cannot be undone; use only when the user asks to be forgotten.",
      inputSchema: published(forgetInputSchema),
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    strictTool("forget", forgetInputSchema, (input) => mem.forget(input)),
  );

  server.registerTool(
    "list_memories",
    {
      title: "List memories",
      description: "What the agent remembers, newest first: ids, subjects, texts and dates.",
      inputSchema: published(listInput),
      annotations: { readOnlyHint: true },
    },
    strictTool("list_memories", listInput, async ({ agent, about, status, limit }) => {
      const memories = await mem.memories(agent, { about, status: status ?? "active" });
      return memories
        .sort((a, b) => b.observedAt.localeCompare(a.observedAt))
        .slice(0, limit ?? 50)
        .map(({ id, about, text, kind, observedAt, status, invalidAt }) => ({
          id,
          about,
          text,
          kind,
          observedAt,
          status,
          invalidAt,
        }));
    }),
  );

  server.registerTool(
    "update_memory",
    {
      title: "Update memory",
      description:
        "Correct a memory that is wrong: the text given becomes its current version and the old one is kept as its past. Use when the user says a remembered fact is wrong or has changed. Only an active memory can be updated; the error names the current version otherwise.",
      inputSchema: published(updateInput),
    },
    strictTool("update_memory", updateInput, ({ agent, memoryId, text, meta }) =>
      mem.update(agent, memoryId, text, meta === undefined ? {} : { meta }),
    ),
  );

  server.registerTool(
    "restore_memory",
    {
      title: "Restore memory",
      description:
        "Undo a wrong correction or replacement: a past (superseded) version becomes current again and what replaced it becomes past. Use the id of the past version (history or list_memories with status superseded).",
      inputSchema: published(memoryRef),
    },
    strictTool("restore_memory", memoryRef, ({ agent, memoryId }) => mem.restore(agent, memoryId)),
  );

  server.registerTool(
    "add_memory",
    {
      title: "Add memory",
      description:
        "Store one fact exactly as given, with no interpretation, e.g. about: 'sam', text: 'Sam is allergic to penicillin.'. It replaces nothing; to change a fact already remembered use update_memory.",
      inputSchema: published(addInput),
    },
    strictTool("add_memory", addInput, ({ agent, ...fact }) => mem.add(agent, fact)),
  );

  return server;
}

/** Runs a tool: its value as JSON text, or a typed error as a tool error the agent can read. */
async function run(fn: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return { content: [{ type: "text", text: JSON.stringify(await fn(), null, 2) }] };
  } catch (error) {
    if (!isMemlaneError(error)) throw error;
    const field = typeof error.details.field === "string" ? ` (field: ${error.details.field})` : "";
    return { isError: true, content: [{ type: "text", text: `${error.code}${field}: ${error.message}` }] };
  }
}
