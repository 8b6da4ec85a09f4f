/**
 * The inputs of the paged lists (`mem.listMemories`, `listSessions`, `listTurns`,
 * `listOperations`, `listEdges`): each list's filters and the page (`limit`, `cursor`). Closed
 * like every public input; the times they hold are read as conversation times before a store
 * sees them.
 */
import { z } from "zod";
import type { EdgeType, MemoryFilter, OperationType } from "../../core/types.js";
import { MAX_LIST_PAGE } from "../../store/memory-store.js";
import {
  conversationTime,
  idSchema,
  memoryNarrowingShape,
  metaFilterSchema,
  storedIdSchema,
  strictInput,
} from "../api.js";

/** Rows in a page when the caller does not say. */
export const DEFAULT_LIST_PAGE = 100;

export { MAX_LIST_PAGE };

/** The page of a list: how many rows, and after which (a page's `nextCursor`). */
export const pageShape = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_PAGE)
    .optional()
    .describe(`rows in the page, 1 to ${MAX_LIST_PAGE}; default ${DEFAULT_LIST_PAGE}`),
  cursor: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe(
      "where the page starts: the `nextCursor` of the page before (same filters); absent: the first page",
    ),
  newest: z.boolean().optional().describe("the list newest first (default: oldest first)"),
};

const MEMORY_STATUSES = ["active", "superseded", "forgotten"] as const;
const SESSION_STATUSES = ["open", "closed", "consolidated", "failed"] as const;
const EDGE_TYPES = [
  "Supersedes",
  "FusedInto",
  "Changed",
  "Cause",
  "Reason",
  "HinderedBy",
  "React",
  "Want",
  "SameTopic",
  "Link",
] as const satisfies readonly EdgeType[];

const oneOrMore = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]);
const timeBound = (what: string) =>
  z.string().min(1).optional().describe(`${what} (conversation time, ISO-8601)`);

/** The filters of `mem.listMemories`: what a recall narrows by, and status, subject and strategy. */
export const memoryListShape = {
  status: z
    .union([z.enum(MEMORY_STATUSES), z.array(z.enum(MEMORY_STATUSES)).min(1), z.literal("any")])
    .optional()
    .describe("only memories in this status (or these; `any` for all); default active"),
  about: oneOrMore(storedIdSchema)
    .optional()
    .describe("only memories about this partner (or these), or the agent"),
  strategy: z.string().min(1).optional().describe("only memories this strategy wrote"),
  ...memoryNarrowingShape,
};
export const listMemoriesSchema = strictInput({ ...memoryListShape, ...pageShape });
export type ListMemoriesInput = z.input<typeof listMemoriesSchema>;

export const sessionListShape = {
  status: oneOrMore(z.enum(SESSION_STATUSES)).optional().describe("only sessions in this status (or these)"),
  partner: storedIdSchema.optional().describe("only sessions this partner took part in"),
  strategy: z.string().min(1).optional().describe("only sessions this strategy handles"),
  meta: metaFilterSchema.optional(),
  after: timeBound("only sessions at or after this time"),
  before: timeBound("only sessions before this time"),
};
export const listSessionsSchema = strictInput({ ...sessionListShape, ...pageShape });
export type ListSessionsInput = z.input<typeof listSessionsSchema>;

export const turnListShape = {
  sessionId: storedIdSchema.optional().describe("only this session's turns"),
  speaker: storedIdSchema.optional().describe("only what this speaker said"),
  meta: metaFilterSchema.optional(),
  after: timeBound("only turns at or after this time"),
  before: timeBound("only turns before this time"),
};
export const listTurnsSchema = strictInput({ ...turnListShape, ...pageShape });
export type ListTurnsInput = z.input<typeof listTurnsSchema>;

export const operationListShape = {
  memoryId: idSchema.optional().describe("only operations that read or wrote this memory"),
  sessionId: storedIdSchema.optional().describe("only operations of this session"),
  status: z.enum(["done", "failed"]).optional().describe("only done or only failed operations"),
  type: z
    .string()
    .regex(/^[A-Z]+$/, "an operation type in capitals (REPLACE, CLASSIFY…)")
    .optional()
    .describe("only operations of this type (REPLACE, CLASSIFY, CONSOLIDATE…)"),
  after: timeBound("only operations at or after this time"),
  before: timeBound("only operations before this time"),
};
export const listOperationsSchema = strictInput({ ...operationListShape, ...pageShape });
export type ListOperationsInput = z.input<typeof listOperationsSchema>;

export const edgeListShape = {
  memoryId: idSchema.optional().describe("only edges from or to this memory"),
  type: oneOrMore(z.enum(EDGE_TYPES)).optional().describe("only edges of this type (or these)"),
};
export const listEdgesSchema = strictInput({ ...edgeListShape, ...pageShape });
export type ListEdgesInput = z.input<typeof listEdgesSchema>;

/** The time fields of the filters, each read as a conversation time (ISO-8601 UTC). */
const TIME_FIELDS = [
  "observedAfter",
  "observedBefore",
  "validAfter",
  "validBefore",
  "after",
  "before",
] as const;

/** `filter` with its times read as conversation times; an unreadable one names its field. */
export function withConversationTimes<T extends object>(filter: T): T {
  const out = { ...filter } as Record<string, unknown>;
  for (const field of TIME_FIELDS) {
    const value = out[field];
    if (typeof value === "string") out[field] = conversationTime(value, field);
  }
  return out as T;
}

/** The parsed filter of a memory list as the store takes it (no page fields). */
export function memoryFilterOf(input: z.output<typeof listMemoriesSchema>): MemoryFilter {
  const { limit: _limit, cursor: _cursor, newest: _newest, ...filter } = input;
  return withConversationTimes(filter);
}

/** An operation type as given: one no operation has simply matches none. */
export const asOperationType = (type: string | undefined) => type as OperationType | undefined;
