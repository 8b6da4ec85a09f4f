/**
 * memlane as MCP tools (the official TypeScript SDK): remember (a whole exchange in one call),
 * recall, timeline, history, forget, get_memory, list_memories, get_turn, list_sessions, list_turns,
 * and the caller's corrections (update_memory, restore_memory, add_memory), over one tenant's
 * view of the engine. Inputs are
 * the engine's own schemas where it has them (recall, forget), every field described; read-only
 * tools say so; answers are JSON text and the same value as structured content, under an output
 * schema per tool; a typed error (an unknown id included: NOT_FOUND, as REST's 404) is a tool
 * error naming its code and field, so the calling agent can correct itself. A desktop client
 * gets a default agent and partner (`memlane mcp --agent ava --partner me`), so it need not
 * invent ids at every call; an agent given in a call still wins. The partner is more than a
 * default: it walls the server (partner-wall.ts), every read answering only what they may hear
 * and every write being theirs, since the model behind the client repeats what it reads to them.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { InvalidInputError, isMemlaneError } from "../../core/errors.js";
import {
  addFactSchema,
  forgetInputSchema,
  idSchema,
  memoryNarrowingShape,
  parseInput,
  recallInputSchema,
  turnTextSchema,
  unknownFields,
  updateInputSchema,
} from "../../engine/api.js";
import type { Memlane } from "../../engine/memlane.js";
import { messageSchema } from "../../engine/messages/message-schemas.js";
import { remember } from "../../engine/remember.js";
import { listSessionsTool, listTurnsTool, sessionListInput, turnListInput } from "./list-tools.js";
import { noMemory, noTurn, PartnerWall } from "./partner-wall.js";
import { MCP_TOOLS } from "./tool-names.js";
import {
  addOutput,
  forgetOutput,
  getOutput,
  historyOutput,
  listOutput,
  recallOutput,
  rememberOutput,
  restoreOutput,
  sessionListOutput,
  timelineOutput,
  turnListOutput,
  turnOutput,
  updateOutput,
} from "./tool-outputs.js";

export { MCP_TOOLS };

const rememberInput = z
  .strictObject(
    {
      agent: idSchema.describe("whose memory (the assistant's id, e.g. 'assistant')"),
      partner: idSchema.describe("who the agent is talking with (the user's id)"),
      turns: z
        .array(messageSchema)
        .min(1)
        .optional()
        .describe(
          "the exchange, oldest first: { role: 'user' | 'assistant', content } (user is the partner, assistant the agent) or { speaker, text }",
        ),
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
      infer: z
        .boolean()
        .optional()
        .describe("false: keep the turns as given and infer no memory from them (default true)"),
      idempotencyKey: z
        .string()
        .min(1)
        .max(255)
        .optional()
        .describe("a call retried with the same key stores nothing twice (new sessions only)"),
      meta: z.record(z.string(), z.unknown()).optional().describe("your own data, kept with a new session"),
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
    ...memoryNarrowingShape,
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .describe("at most this many, newest first (default 50)"),
    cursor: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("the nextCursor of the page before, with the same filters, for the next page"),
  },
  unknownFields,
);

const turnRef = z.strictObject(
  {
    agent: idSchema.describe("whose memory"),
    turnId: idSchema.describe("the turn's id (a hit's sourceTurns, or a turn hit's id)"),
  },
  unknownFields,
);

/** Ids a tool call may leave out: the server's defaults fill them in (`memlane mcp --agent ava --partner me`). */
export interface McpDefaults {
  /** Whose memory every tool reads and writes unless a call names another agent. */
  agent?: string;
  /**
   * Who the agent talks with, and a wall: every tool answers only what this partner may hear
   * (recall, list_memories, get_memory, get_turn, timeline, history, list_sessions, list_turns),
   * and writes only on their behalf (`remember` and `add_memory` for them, corrections and
   * `forget` of what they may hear). A call naming another partner is refused, and an id behind
   * the wall is NOT_FOUND. Without it, the tools see the agent's whole memory (an operator's view).
   */
  partner?: string;
}

/**
 * What a tool hands the SDK as its input schema: the tool's own JSON schema (strict, every field
 * described) over a parser that lets every object through. The SDK would otherwise refuse a bad
 * input itself, in a message of its own; parsing in the tool (`strictTool`) makes a bad field
 * read as every other memlane error does, `INVALID_INPUT (field: …)`, so the calling agent can
 * correct itself. A field with a default is no longer required, and says its default.
 */
function published(schema: z.ZodType, defaults: Record<string, string | undefined> = {}): z.ZodObject {
  // A top-level anyOf (recall's "about or scope: agent", forget's "one of three") is refused by
  // some model APIs in a tool's schema; the tool's own parsing still holds to it, and the field
  // descriptions say it.
  const { $schema: _, anyOf: __, ...json } = z.toJSONSchema(schema, { io: "input" });
  const properties = json.properties as Record<string, { description?: string }> | undefined;
  for (const [field, value] of Object.entries(defaults)) {
    const property = properties?.[field];
    if (value === undefined || !property) continue;
    property.description = `${property.description ?? field}; default "${value}"`;
    if (Array.isArray(json.required)) json.required = json.required.filter((r) => r !== field);
  }
  return z.object({}).catchall(z.unknown()).meta(json);
}

/**
 * A tool's callback, given its input with the defaults filled in and parsed with `schema` (an
 * InvalidInputError when it does not fit); its value is the result's text and structured content.
 */
function strictTool<S extends z.ZodType>(
  tool: string,
  schema: S,
  defaults: Record<string, string | undefined>,
  fn: (input: z.output<S>) => Promise<unknown>,
  structured: (value: unknown) => Record<string, unknown> = (value) => value as Record<string, unknown>,
): (input: unknown) => Promise<CallToolResult> {
  return (input) =>
    run(() => fn(parseInput(schema, withDefaults(input, defaults), `${tool} input`)), structured);
}

/** The input with each default filled in where the call left the field out. */
function withDefaults(input: unknown, defaults: Record<string, string | undefined>): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const filled: Record<string, unknown> = { ...input };
  for (const [field, value] of Object.entries(defaults))
    if (value !== undefined && filled[field] === undefined) filled[field] = value;
  return filled;
}

/**
 * An MCP server whose tools read and write `mem`'s tenant only. Connect it to a transport: stdio
 * for `memlane mcp`, streamable HTTP at `/mcp` of `memlane serve`, or the SDK's in-memory pair.
 * `defaults` names the agent and partner a call may leave out.
 * @example const server = createMcpServer(mem.tenant("acme"), { agent: "ava", partner: "me" });
 * await server.connect(new StdioServerTransport());
 * @throws {InvalidInputError} a default that is not a valid id, or the agent as its own partner
 */
export function createMcpServer(mem: Memlane, defaults: McpDefaults = {}): McpServer {
  const agent = defaults.agent === undefined ? undefined : parseInput(idSchema, defaults.agent, "agent");
  const partner =
    defaults.partner === undefined ? undefined : parseInput(idSchema, defaults.partner, "partner");
  if (agent !== undefined && agent === partner)
    throw new InvalidInputError("The agent cannot be its own partner", { field: "partner" });
  const byAgent = { agent };
  const wall = partner === undefined ? undefined : new PartnerWall(mem, partner);
  // The client's model reads this once: it learns why another person's data is not there.
  const instructions = wall
    ? `memlane for "${wall.partner}": every tool answers only what "${wall.partner}" may hear, and stores or changes memory only on their behalf.`
    : undefined;
  const server = new McpServer({ name: "memlane", version: "0.1.0" }, instructions ? { instructions } : {});

  server.registerTool(
    "remember",
    {
      title: "Remember",
      description:
        "Store a whole exchange in one call (turns as { role: 'user' | 'assistant', content } or { speaker, text }, or one fact the partner told) so it is remembered later. Every turn is checked first: a bad one stores nothing. By default the session is closed and consolidated into memories in the background; pass close: false and the returned sessionId to keep adding turns.",
      inputSchema: published(rememberInput, { agent, partner }),
      outputSchema: rememberOutput,
    },
    strictTool("remember", rememberInput, { agent, partner }, async (input) => {
      if (wall) {
        wall.own("partner", input.partner);
        if (input.sessionId !== undefined) await wall.session(input.agent, input.sessionId);
      }
      return remember(mem, input);
    }),
  );

  server.registerTool(
    "recall",
    {
      title: "Recall",
      description: `Search what the agent remembers for a question, best first, each hit with its id, text, subject, date and status (current or past). Use before answering anything that depends on earlier conversations.${wall ? ` Always for "${wall.partner}": what they may hear, whoever the question is about.` : ""}`,
      inputSchema: published(recallInputSchema, { agent, about: partner }),
      outputSchema: recallOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("recall", recallInputSchema, { agent, about: partner }, async (input) => {
      const found = await mem.recall(wall ? wall.recallInput(input) : input);
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
      inputSchema: published(memoryRef, byAgent),
      outputSchema: timelineOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("timeline", memoryRef, byAgent, ({ agent, memoryId }) =>
      wall ? wall.timeline(agent, memoryId) : mem.timeline(agent, memoryId),
    ),
  );

  server.registerTool(
    "history",
    {
      title: "History",
      description:
        "Why a memory is as it is: every operation on it with its rationale, and what it replaced or was replaced by.",
      inputSchema: published(memoryRef, byAgent),
      outputSchema: historyOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("history", memoryRef, byAgent, ({ agent, memoryId }) =>
      wall ? wall.history(agent, memoryId) : mem.history(agent, memoryId),
    ),
  );

  server.registerTool(
    "forget",
    {
      title: "Forget",
      description:
        "Delete for real: memories by id, everything about a subject, or a whole session. Cannot be undone; use only when the user asks to be forgotten.",
      // Whom to forget is never filled in: erasing must be asked for by name.
      inputSchema: published(forgetInputSchema, byAgent),
      outputSchema: forgetOutput,
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    strictTool("forget", forgetInputSchema, byAgent, async (input) => {
      if (wall) await wall.forgettable(input);
      return mem.forget(input);
    }),
  );

  server.registerTool(
    "get_memory",
    {
      title: "Get memory",
      description:
        "One memory by its id (from recall, list_memories or history), whatever its status: its text, subject, kind, dates, evidence and attributes.",
      inputSchema: published(memoryRef, byAgent),
      outputSchema: getOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("get_memory", memoryRef, byAgent, async ({ agent, memoryId }) => {
      if (wall) return wall.memory(agent, memoryId);
      const memory = await mem.getMemory(agent, memoryId);
      if (!memory) throw noMemory(agent, memoryId);
      return memory;
    }),
  );

  server.registerTool(
    "list_memories",
    {
      title: "List memories",
      description:
        "What the agent remembers, newest first, a page of at most `limit` (default 50): ids, subjects, texts and dates. Narrow by kind, session, meta (e.g. { topic: 'work' } or { topic: { in: ['work', 'home'] } }) and dates; pass nextCursor as cursor for the next page.",
      inputSchema: published(listInput, byAgent),
      outputSchema: listOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("list_memories", listInput, byAgent, async ({ agent, status, limit, ...filter }) => {
      const page = await mem.listMemories(
        agent,
        { ...filter, status: status ?? "active", limit: limit ?? 50, newest: true },
        wall?.hearing,
      );
      return {
        memories: page.items.map(({ id, about, text, kind, observedAt, status, invalidAt }) => ({
          id,
          about,
          text,
          kind,
          observedAt,
          status,
          invalidAt,
        })),
        nextCursor: page.nextCursor,
      };
    }),
  );

  server.registerTool(
    "get_turn",
    {
      title: "Get turn",
      description:
        "One utterance by its id (a memory's sourceTurns, or a turn hit of recall): who said it, its words, its session and time. Use to read the evidence of a memory.",
      inputSchema: published(turnRef, byAgent),
      outputSchema: turnOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("get_turn", turnRef, byAgent, async ({ agent, turnId }) => {
      if (wall) return wall.turn(agent, turnId);
      const turn = await mem.getTurn(agent, turnId);
      if (!turn) throw noTurn(agent, turnId);
      return turn;
    }),
  );

  server.registerTool(
    "list_sessions",
    {
      title: "List sessions",
      description:
        "The agent's conversations, a page of at most `limit` (default 100), oldest first (newest: true for the latest first): ids, partners, dates and status. Narrow by partner, status, strategy, meta and dates (after/before); pass nextCursor as cursor for the next page. A session id lists its turns with list_turns.",
      inputSchema: published(sessionListInput, { agent, partner }),
      outputSchema: sessionListOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("list_sessions", sessionListInput, { agent, partner }, (input) => {
      wall?.own("partner", input.partner);
      return listSessionsTool(mem, input);
    }),
  );

  server.registerTool(
    "list_turns",
    {
      title: "List turns",
      description:
        "What was said, a page of at most `limit` (default 100), oldest first (newest: true for the latest first): speaker, words, session and time. Narrow by session, speaker, meta and dates (after/before); pass nextCursor as cursor for the next page. For a partner, only what they may hear, so a page can hold fewer turns than `limit`: go on while nextCursor is not null.",
      inputSchema: published(turnListInput, { agent, partner }),
      outputSchema: turnListOutput,
      annotations: { readOnlyHint: true },
    },
    strictTool("list_turns", turnListInput, { agent, partner }, (input) => {
      wall?.own("partner", input.partner);
      return listTurnsTool(mem, input);
    }),
  );

  server.registerTool(
    "update_memory",
    {
      title: "Update memory",
      description:
        "Correct a memory that is wrong: the text given becomes its current version and the old one is kept as its past. Use when the user says a remembered fact is wrong or has changed. Only an active memory can be updated; the error names the current version otherwise.",
      inputSchema: published(updateInput, byAgent),
      outputSchema: updateOutput,
    },
    strictTool("update_memory", updateInput, byAgent, async ({ agent, memoryId, text, meta }) => {
      await wall?.memory(agent, memoryId);
      return mem.update(agent, memoryId, text, meta === undefined ? {} : { meta });
    }),
  );

  server.registerTool(
    "restore_memory",
    {
      title: "Restore memory",
      description:
        "Undo a wrong correction or replacement: a past (superseded) version becomes current again and what replaced it becomes past. Use the id of the past version (history or list_memories with status superseded).",
      inputSchema: published(memoryRef, byAgent),
      outputSchema: restoreOutput,
    },
    strictTool("restore_memory", memoryRef, byAgent, async ({ agent, memoryId }) => {
      await wall?.memory(agent, memoryId);
      return mem.restore(agent, memoryId);
    }),
  );

  server.registerTool(
    "add_memory",
    {
      title: "Add memory",
      description:
        "Store one fact exactly as given, with no interpretation, e.g. about: 'sam', text: 'Sam is allergic to penicillin.'. It replaces nothing; to change a fact already remembered use update_memory.",
      inputSchema: published(addInput, { agent, about: partner }),
      outputSchema: addOutput,
    },
    strictTool("add_memory", addInput, { agent, about: partner }, ({ agent, ...fact }) => {
      // A fact about someone else would be theirs to hear (and one about the agent, everyone's
      // under agent scope): not a write the walled partner may make for them.
      wall?.own("about", fact.about);
      return mem.add(agent, fact);
    }),
  );

  return server;
}

/**
 * Runs a tool: its value as JSON text and as structured content, or a typed error as a tool
 * error the agent can read.
 */
async function run(
  fn: () => Promise<unknown>,
  structured: (value: unknown) => Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    const value = await fn();
    // Through JSON, so the structured content is exactly what the text says (no undefined, no Dates).
    const text = JSON.stringify(value ?? null, null, 2);
    return { content: [{ type: "text", text }], structuredContent: structured(JSON.parse(text)) };
  } catch (error) {
    if (!isMemlaneError(error)) throw error;
    const field = typeof error.details.field === "string" ? ` (field: ${error.details.field})` : "";
    return { isError: true, content: [{ type: "text", text: `${error.code}${field}: ${error.message}` }] };
  }
}
