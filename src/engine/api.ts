/**
 * The zod schemas of every public input (sessions, turns, recall, forget, ingest). The facade
 * validates each call with them before anything is stored, and answers InvalidInputError naming
 * the field; the CLI parses its options through them, and an HTTP server can publish them as its
 * OpenAPI document. One shape, one place.
 */
import { z } from "zod";
import { InvalidInputError, isMemlaneError } from "../core/errors.js";
import { META_KEY } from "../core/meta-filter.js";
import { parseConversationTime } from "../core/time.js";
import { unknownFieldMessage } from "../core/unknown-fields.js";
import { STRATEGY_NAMES } from "../strategies/names.js";

/**
 * The second argument of every `z.strictObject` among the public inputs: an unknown field is
 * refused with its name and, for a misspelling, the field it was meant to be. Inputs are strict
 * (`additionalProperties: false` in the published schemas too) because an ignored field leaves
 * a call unscoped, or a default taken, while the caller believes otherwise. Free-form records
 * (`meta`) stay `z.record`, open: they are the caller's data.
 */
export const unknownFields = {
  error: (issue: z.core.$ZodRawIssue) => {
    if (issue.code !== "unrecognized_keys") return undefined;
    const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
    return unknownFieldMessage(String(issue.keys[0]), Object.keys(shape ?? {}));
  },
};

/** A strict object schema of a public input (see `unknownFields`). */
export function strictInput<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, unknownFields);
}

/**
 * An agent, partner, speaker, tenant or session id: not blank, no surrounding spaces ("sam " is
 * not "sam"), no control characters (a NUL or a newline in an id would print as another id, and
 * could be read as a separator by whatever joins ids), no invisible characters, and in NFC, so
 * two ids that print alike are the same id.
 */
export const idSchema = z
  .string()
  .min(1, "must not be empty")
  .max(200)
  // The part of the rules a JSON schema can say (it is published in the OpenAPI document): no
  // surrounding spaces, no C0 control characters. The refinements below say the rest.
  .regex(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    /^[^\s\x00-\x1f\x7f-\x9f](?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$/,
    "must not be blank, start or end with spaces, or hold control characters",
  )
  // Ids that print alike must be alike: no invisible characters (zero-width, direction marks),
  // and one way to write each letter (Unicode NFC: "é" is one character, not "e" and an accent).
  // Zero-width joiners (U+200C, U+200D) are letters' business in Persian names and emoji.
  .refine(
    (s) => !/[^\P{Cf}\u200c\u200d]/u.test(s),
    "must not hold invisible characters (zero-width spaces, direction marks)",
  )
  .refine(
    (s) => s === s.normalize("NFC"),
    "must be in Unicode NFC form (compose accents: s.normalize('NFC'))",
  );

/**
 * An id as a store may hold it, for erasing (forget): releases before the invisible-character and
 * NFC rules stored such ids, and they must stay erasable. Control characters are refused on every
 * path (a NUL makes two ids read as one).
 */
export const storedIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(200)
  .refine((s) => s.trim().length > 0, "must not be blank")
  .refine((s) => !/\p{Cc}/u.test(s), "must not hold control characters");

/**
 * The most characters any turn may hold, whatever the engine's `maxTurnChars`: past this a text
 * is refused by the schema itself. Long turns are searched as passages (turn-embedding-text.ts).
 */
export const MAX_TURN_CHARS = 16 * 1024 * 1024;

/** The engine's default limit on one turn's characters (`maxTurnChars`): 1 MiB of text. */
export const DEFAULT_MAX_TURN_CHARS = 1024 * 1024;

/** A turn's text: not blank, at most MAX_TURN_CHARS characters (the engine's own limit is checked apart). */
export const turnTextSchema = z
  .string()
  .max(
    MAX_TURN_CHARS,
    `a turn holds at most ${MAX_TURN_CHARS} characters; split long text into several turns`,
  );

/**
 * Refuses a turn longer than the engine's limit, naming it.
 * @throws {InvalidInputError} the text is longer than `limit` characters
 */
export function checkTurnLength(text: string, limit: number, field = "text"): void {
  if (text.length > limit)
    throw new InvalidInputError(
      `A turn holds at most ${limit} characters (this engine's maxTurnChars); this one has ${text.length}. Split it, or raise maxTurnChars`,
      { field, limit, length: text.length },
    );
}

/** How `session.turn()` treats the strategy's per-turn work. */
export const perTurnSchema = z
  .enum(["wait", "background"])
  .describe(
    "wait: turn() returns after the strategy's per-turn work committed with the turn; background: after the turn is stored",
  );

/**
 * Whose memories a recall may see. `partner`: what the partners in question may hear (memories
 * learned from them or told to them, and nothing another partner said); `agent`: the agent's whole
 * memory, every partner's, except what someone asked to keep private or is sensitive by kind,
 * which stays with the partner who said it.
 */
export const recallScopeSchema = z
  .enum(["partner", "agent"])
  .describe(
    "partner: only what the partners in question may hear (needs `about` outside a session); agent: everything the agent knows, private memories excepted; default partner (agent for emma)",
  );
export type RecallScope = z.infer<typeof recallScopeSchema>;

export const sessionInputSchema = z
  .strictObject(
    {
      agent: idSchema.describe("whose memory it is"),
      partner: idSchema.optional().describe("the one partner of a one-to-one session (not the agent itself)"),
      partners: z
        .array(idSchema)
        .min(1)
        .optional()
        .describe("everyone the agent talks with in this session (not the agent itself)"),
      at: z.string().min(1).optional().describe("conversation time (ISO-8601 or LoCoMo's form); default now"),
      id: idSchema.optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
      strategy: z
        .string()
        .min(1)
        .optional()
        .describe(
          `strategy that handles this session: ${STRATEGY_NAMES.join(", ")}, or one the server registered (another name is refused); default the engine's`,
        ),
      perTurn: perTurnSchema.optional(),
      scope: recallScopeSchema
        .optional()
        .describe("what the session's replies may recall: partner (default; agent for emma) or agent"),
    },
    unknownFields,
  )
  .refine((s) => s.partner !== undefined || (s.partners?.length ?? 0) > 0, {
    message: "a session needs a partner (or partners)",
    path: ["partner"],
  })
  // Said in the published schema too: one of the two is required.
  .meta({ anyOf: [{ required: ["partner"] }, { required: ["partners"] }] });
export type SessionInput = z.input<typeof sessionInputSchema>;

export const turnInputSchema = z.strictObject(
  {
    speaker: idSchema,
    text: turnTextSchema.refine((t) => t.trim().length > 0, "a turn needs some text"),
    at: z
      .string()
      .min(1)
      .optional()
      .describe("conversation time; default the previous turn's, or the session's"),
    id: idSchema.optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    perTurn: perTurnSchema.optional(),
  },
  unknownFields,
);
export type TurnInput = z.input<typeof turnInputSchema>;

/**
 * Most memlane agents in one conversation: every utterance is written once per agent, and each
 * agent's per-turn work runs on it, so the cost of a turn grows with the count.
 */
export const MAX_CONVERSATION_AGENTS = 16;

export const conversationInputSchema = z.strictObject(
  {
    agents: z
      .array(idSchema)
      .min(2, "a conversation between agents needs at least two")
      .max(
        MAX_CONVERSATION_AGENTS,
        `a conversation takes at most ${MAX_CONVERSATION_AGENTS} agents (each turn is written once per agent)`,
      )
      .describe("the memlane agents taking part; each keeps its own session"),
    partners: z.array(idSchema).optional().describe("people (not memlane agents) who also take part"),
    at: z.string().min(1).optional(),
    id: idSchema.optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    strategies: z
      .record(z.string(), z.string().min(1))
      .optional()
      .describe("strategy per agent; default the engine's"),
    perTurn: perTurnSchema.optional(),
  },
  unknownFields,
);
export type ConversationInput = z.input<typeof conversationInputSchema>;

/** A meta filter: fields of the caller's `meta`, each one value or `{ in: [values] }` (core/meta-filter.ts). */
const metaScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
export const metaFilterSchema = z
  .record(
    z.string().regex(META_KEY, "a meta field is a plain word (letters, digits, _ : -, at most 64)"),
    z.union([metaScalarSchema, strictInput({ in: z.array(metaScalarSchema).min(1).max(100) })]),
  )
  .describe(
    'fields of the caller\'s meta and the value each must hold, or `{ "in": [values] }` for any of several; compared as text',
  );

const timeBound = (what: string) =>
  z.string().min(1).describe(`${what} (ISO-8601 or LoCoMo's form, read as the conversation's time)`);

/**
 * The filters a recall narrows its candidates with, before they are ranked (and the memory lists
 * take beside their own): kind, session, the caller's meta, and dates. The hearing is never one of
 * them: what a caller may hear is the engine's to say.
 */
export const memoryNarrowingShape = {
  kind: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe("only memories of this kind (fact, summary, insight, memo, event…) or these"),
  sessionId: storedIdSchema.optional().describe("only memories learned in this session"),
  meta: metaFilterSchema
    .optional()
    .describe(
      "only memories whose meta (what `add` and `update` keep with a memory) holds these values; compared as text",
    ),
  observedAfter: timeBound("only memories learned at or after this time").optional(),
  observedBefore: timeBound("only memories learned before this time").optional(),
  validAfter: timeBound(
    "only memories current at some moment at or after this time (never replaced, or replaced later)",
  ).optional(),
  validBefore: timeBound(
    "only memories current at some moment at or before this time; equal to validAfter: what held then",
  ).optional(),
};
export const recallFilterSchema = strictInput(memoryNarrowingShape).describe(
  "narrows the memories searched before they are ranked; the hearing still applies",
);
export type RecallFilter = z.input<typeof recallFilterSchema>;

export const recallInputSchema = z
  .strictObject(
    {
      agent: idSchema.describe("whose memory to search (the agent's id)"),
      query: z
        .string()
        .refine((q) => q.trim().length > 0, "recall needs a non-empty query")
        .describe("what to find: a question or the partner's latest words"),
      about: idSchema
        .optional()
        .describe(
          "the partner the recall is for: what they may hear, their own private memories included (required under partner scope)",
        ),
      k: z.number().int().min(1).max(100).optional().describe("how many hits; default the strategy's own"),
      strategy: z
        .string()
        .min(1)
        .optional()
        .describe(
          `recall as this strategy does: ${STRATEGY_NAMES.join(", ")}, or one the server registered (another name is refused); default the engine's`,
        ),
      units: z
        .enum(["memories", "turns"])
        .optional()
        .describe("memories (default): what was remembered; turns: the raw utterances"),
      turns: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe(
          "memories only: also return up to this many raw turns that no returned memory was made from (what the summaries left out), after the memories; default 0",
        ),
      now: z.string().min(1).optional().describe("the conversation's present, for 'last month'"),
      scope: recallScopeSchema.optional(),
      filter: recallFilterSchema.optional(),
    },
    unknownFields,
  )
  // Said in the published schema: a recall names its partner, or asks for the agent's whole
  // memory. (An engine whose default strategy is emma recalls the whole memory without either.)
  .meta({
    anyOf: [{ required: ["about"] }, { required: ["scope"], properties: { scope: { const: "agent" } } }],
  });
export type RecallInput = z.input<typeof recallInputSchema>;

/** Which sessions `mem.sessions` lists: by status (one or several) and by partner. */
export const sessionFilterSchema = z.strictObject(
  {
    status: z
      .union([
        z.enum(["open", "closed", "consolidated", "failed"]),
        z.array(z.enum(["open", "closed", "consolidated", "failed"])).min(1),
      ])
      .optional()
      .describe("only sessions in this status (or these): `open` lists the ones never closed"),
    partner: storedIdSchema.optional().describe("only sessions this partner took part in"),
  },
  unknownFields,
);
export type SessionFilter = z.input<typeof sessionFilterSchema>;

export const forgetInputSchema = z
  .strictObject(
    {
      agent: idSchema.describe("whose memory to erase from (the agent's id)"),
      // Erasing takes ids as they were stored, also by releases with looser id rules. Whom it
      // names is the store's to say: only a person the scope knows is ever matched, and any
      // other word ("it", "-") is NOT_FOUND with the names it knows.
      about: storedIdSchema
        .optional()
        .describe(
          "forget everything about this person (a partner or speaker the agent knows): their memories, their words, the replies to them",
        ),
      memoryIds: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe("forget these memories (ids from recall or list_memories) and their earlier versions"),
      sessionId: storedIdSchema
        .optional()
        .describe("forget this session: its turns and what was remembered from it"),
    },
    unknownFields,
  )
  .refine((f) => f.about !== undefined || f.memoryIds !== undefined || f.sessionId !== undefined, {
    message: "forget needs `about`, `memoryIds` or `sessionId`",
    path: ["about"],
  })
  // Said in the published schema too: at least one of the three.
  .meta({ anyOf: [{ required: ["about"] }, { required: ["memoryIds"] }, { required: ["sessionId"] }] });
export type ForgetInput = z.input<typeof forgetInputSchema>;

/**
 * A memory's text as a caller states it (a correction, a fact added): not blank, no longer than a
 * turn may be (the engine's own `maxTurnChars` is checked apart).
 */
export const memoryTextSchema = turnTextSchema.refine((t) => t.trim().length > 0, "must not be blank");

const metaSchema = z
  .record(z.string(), z.unknown())
  .describe("the caller's own data, kept with the memory (attributes.meta)");

/** What `mem.update(agent, id, text, options)` takes beside the text, and the REST body's rest. */
export const updateOptionsSchema = strictInput({ meta: metaSchema.optional() });
export type UpdateOptions = z.input<typeof updateOptionsSchema>;

/** The body of a correction over REST and MCP: the new text, and optional meta. */
export const updateInputSchema = strictInput({
  text: memoryTextSchema.describe("the corrected statement, which becomes the current version"),
  meta: metaSchema.optional(),
});
export type UpdateInput = z.input<typeof updateInputSchema>;

/** One fact stated by the caller (`mem.add(agent, fact)`), stored as given with no inference. */
export const addFactSchema = strictInput({
  about: idSchema.describe(
    "whom the fact is about: the agent itself or a partner (then it is theirs to hear)",
  ),
  text: memoryTextSchema.describe("the fact, as it should be remembered"),
  at: z.string().optional().describe("conversation time the fact holds from (ISO-8601); default now"),
  meta: metaSchema.optional(),
});
export type AddFactInput = z.input<typeof addFactSchema>;

export const tenantSchema = idSchema.describe("an isolated customer space");

/** One problem of an input, as the errors report it. */
export interface InputIssue {
  /** The offending field's path ("sessions.0.turns.1.speaker"); an unknown field's own name ends it. */
  field: string;
  message: string;
  /** Set for an unknown field. */
  unknown?: true;
}

/**
 * zod's issues as fields and messages, unknown fields first: a misspelt field (`qeury`) also
 * makes the field it was meant to be missing, and "unknown field `qeury`; did you mean `query`?"
 * is the message that says what to fix. An unknown field's path ends with its own name, so
 * `details.field` names it as it names any other field.
 */
export function inputIssues(error: z.ZodError): InputIssue[] {
  const issues = error.issues.flatMap(unionChoice).map((issue): InputIssue => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys")
      return { field: [...path, String(issue.keys[0])].join("."), message: issue.message, unknown: true };
    return { field: path.join("."), message: issue.message };
  });
  return [...issues.filter((i) => i.unknown), ...issues.filter((i) => !i.unknown)];
}

/**
 * A union (a turn or a list of turns) that failed on an input whose type fits one alternative
 * only: that alternative's issues, which name the field, in place of zod's "Invalid input".
 */
function unionChoice(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  const wrongType = (list: z.core.$ZodIssue[]) =>
    list.length === 1 && list[0]!.code === "invalid_type" && list[0]!.path.length === 0;
  const fitting = issue.errors.filter((list) => !wrongType(list));
  if (fitting.length !== 1) return [issue];
  return fitting[0]!
    .map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }))
    .flatMap(unionChoice);
}

/** How an issue reads after "Invalid <what>: ". */
export function describeIssue(issue: InputIssue): string {
  if (!issue.unknown) return `${issue.field ? `${issue.field} ` : ""}${issue.message}`;
  // The message names the field itself; only where it sits is added.
  const where = issue.field.split(".").slice(0, -1).join(".");
  return `${where ? `${where}: ` : ""}${issue.message}`;
}

/**
 * Checks `value` against `schema`; on failure an InvalidInputError whose message and
 * `details.field` name the first offending field (`what` itself for a scalar; an unknown field
 * before any other problem). Returns zod's parsed copy.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = inputIssues(parsed.error);
  const first = issues[0]!;
  // A scalar input (a tenant, a session id) is itself the field.
  throw new InvalidInputError(`Invalid ${what}: ${describeIssue(first)}`, {
    field: first.field || what,
    issues: issues.map(({ field, message }) => ({ field, message })),
  });
}

/** A conversation time read from an input field; an unreadable one names the field. */
export function conversationTime(value: string, field: string): string {
  try {
    return parseConversationTime(value);
  } catch (error) {
    if (isMemlaneError(error)) error.details.field = field;
    throw error;
  }
}
