/**
 * The queries of the paged list routes and how each becomes the engine's list input: a list of
 * words is comma-separated (`status=active,superseded`, `kind=fact,summary`; ids are not split,
 * they may hold commas), a meta filter is one parameter per field (`meta.topic=work`,
 * `meta.topic=work,home` for either), and `limit` and `cursor` page.
 * The engine validates what they become (engine/list/list-inputs.ts), so a bad value is the same
 * INVALID_INPUT as in the library, naming its field; a parameter nobody knows is refused here.
 */
import { z } from "@hono/zod-openapi";
import { META_KEY } from "../../core/meta-filter.js";
import type { MetaFilter } from "../../core/types.js";
import { unknownFieldMessage } from "../../core/unknown-fields.js";
import { DEFAULT_LIST_PAGE, MAX_LIST_PAGE } from "../../engine/list/list-inputs.js";

const text = (description: string) => z.string().min(1).optional().describe(description);
const times = {
  after: text("only rows at or after this conversation time (ISO-8601)"),
  before: text("only rows before this conversation time"),
};

const pageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_PAGE)
    .optional()
    .describe(`rows in the page, 1 to ${MAX_LIST_PAGE}; default ${DEFAULT_LIST_PAGE}`),
  cursor: text("the `nextCursor` of the page before (send the same filters); absent: the first page"),
  order: z.enum(["oldest", "newest"]).optional().describe("oldest first (default) or newest first"),
};

const META_DOC =
  "Filter on the caller's meta with one parameter per field: `meta.topic=work`, or `meta.topic=work,home` for either; values compare as text.";

/**
 * A query of known parameters plus `meta.<field>` ones; any other parameter is refused, naming the
 * one a misspelling meant.
 */
function listQuery<T extends z.ZodRawShape>(shape: T, meta: boolean) {
  const known = Object.keys(shape);
  return z
    .object(shape)
    .catchall(z.string())
    .superRefine((query, ctx) => {
      for (const key of Object.keys(query)) {
        if (known.includes(key)) continue;
        if (meta && key.startsWith("meta.") && META_KEY.test(key.slice(5))) continue;
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: unknownFieldMessage(key, meta ? [...known, "meta.<field>"] : known),
        });
      }
    });
}

export const memoriesQuery = listQuery(
  {
    status: text("which memories: active (default), superseded, forgotten, any, or several comma-separated"),
    about: text("only memories about this subject (one id: ids may hold commas)"),
    kind: text("only memories of this kind (or these, comma-separated)"),
    strategy: text("only memories this strategy wrote"),
    sessionId: text("only memories drawn from this session"),
    observedAfter: text("only memories learned at or after this conversation time (ISO-8601)"),
    observedBefore: text("only memories learned before this time"),
    validAfter: text("only memories current at some moment at or after this time"),
    validBefore: text(
      "only memories current at some moment at or before this time (= validAfter: what held then)",
    ),
    ...pageQuery,
  },
  true,
);

export const sessionsQuery = listQuery(
  {
    status: text(
      "only sessions in this status (open, closed, consolidated, failed; several comma-separated)",
    ),
    partner: text("only sessions this partner took part in"),
    strategy: text("only sessions this strategy handles"),
    ...times,
    ...pageQuery,
  },
  true,
);

export const turnsQuery = listQuery(
  {
    sessionId: text("only this session's turns"),
    speaker: text("only what this speaker said"),
    ...times,
    ...pageQuery,
  },
  true,
);

export const operationsQuery = listQuery(
  {
    status: z.enum(["done", "failed"]).optional().describe("only done or only failed operations"),
    type: text("only operations of this type (REPLACE, CLASSIFY, CONSOLIDATE…)"),
    sessionId: text("only operations of this session"),
    memoryId: text("only operations that read or wrote this memory"),
    ...times,
    limit: pageQuery.limit.describe(`operations in the page, 1 to ${MAX_LIST_PAGE}; default 200`),
    cursor: pageQuery.cursor,
    order: z.enum(["newest", "oldest"]).optional().describe("newest first (default) or oldest first"),
  },
  false,
);

export const edgesQuery = listQuery(
  {
    memoryId: text("only edges from or to this memory"),
    type: text("only edges of this type (Supersedes, Link, Cause…; several comma-separated)"),
    ...pageQuery,
  },
  false,
);

/** Where the list routes say how to filter on meta. */
export const metaQueryDoc = META_DOC;

/** A comma-separated list as one value or several; absent stays absent. */
export function commaList(value: string | undefined): string | string[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(",");
  return parts.length === 1 ? parts[0] : parts;
}

/** `order=newest` as the engine's `newest` (absent when the query leaves the order out). */
export const newestOf = (order: string | undefined) => (order === undefined ? undefined : order === "newest");

/** The `meta.<field>` parameters of a query as a meta filter, and the rest of the query. */
export function splitMeta<Q extends Record<string, unknown>>(
  query: Q,
): { rest: Q; meta: MetaFilter | undefined } {
  const rest: Record<string, unknown> = {};
  const meta: MetaFilter = {};
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith("meta.")) {
      if (value !== undefined) rest[key] = value;
      continue;
    }
    const values = String(value).split(",");
    meta[key.slice(5)] = values.length === 1 ? values[0]! : { in: values };
  }
  return { rest: rest as Q, meta: Object.keys(meta).length > 0 ? meta : undefined };
}
