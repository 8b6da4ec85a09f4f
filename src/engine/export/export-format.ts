/**
 * The export format (docs/formats.md, "Export"): JSON lines, a header first, then one line per
 * stored row — sessions, turns, memories (every status), edges, operations, embeddings if asked —
 * and an end line with the counts, so a cut-off file is told from a whole one. Every line is
 * checked against these schemas on import; an unknown field is bad input.
 */
import { z } from "zod";
import type { EdgeType, OperationType } from "../../core/types.js";
import { idSchema, storedIdSchema, unknownFields } from "../api.js";

/** The format's name, in the header; a file naming another is refused. */
export const EXPORT_FORMAT = "memlane-export";
/** The format's version: raised when a line changes shape; an importer refuses a newer one. */
export const EXPORT_VERSION = 1;

/** Every type a key of: a type added to the domain and not here fails to compile, so no line is refused for it. */
const keysOf = <K extends string>(all: Record<K, true>) => Object.keys(all) as [K, ...K[]];
const OPERATION_TYPES = keysOf<OperationType>({
  PASS: true,
  REPLACE: true,
  APPEND: true,
  DELETE: true,
  FUSION: true,
  NEW: true,
  REDUNDANT: true,
  UPDATED: true,
  LINK: true,
  FORGET: true,
  SUMMARIZE: true,
  CLASSIFY: true,
  REPLY: true,
  DISCARD: true,
  CONSOLIDATE: true,
  TURN: true,
  UPDATE: true,
  RESTORE: true,
  ADD: true,
  STEP: true,
});
const EDGE_TYPES = keysOf<EdgeType>({
  Supersedes: true,
  FusedInto: true,
  Changed: true,
  Cause: true,
  Reason: true,
  HinderedBy: true,
  React: true,
  Want: true,
  SameTopic: true,
  Link: true,
});

const obj = <T extends z.core.$ZodLooseShape>(shape: T) => z.strictObject(shape, unknownFields);
const id = storedIdSchema;
const time = z.string().min(1);
const record = z.record(z.string(), z.unknown());

export const headerLineSchema = obj({
  type: z.literal("header"),
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int().positive(),
  /** The tenant the scope was read from (an import writes into its own). */
  tenant: id,
  /** The one agent exported, or null for every agent of the tenant. */
  agent: id.nullable(),
  /** The person the export is about, or null for whole scopes. */
  about: id.nullable(),
  embeddings: z.boolean(),
  /**
   * When the export was made (system time): an import refuses it in a scope that forgot a person
   * or memories later, since the file may hold what was forgotten.
   */
  exportedAt: time,
});

export const sessionLineSchema = obj({
  type: z.literal("session"),
  agent: id,
  id,
  partners: z.array(id),
  at: time,
  status: z.enum(["open", "closed", "consolidated", "failed"]),
  strategy: z.string().min(1),
  meta: record,
  recordedAt: time,
});

export const turnLineSchema = obj({
  type: z.literal("turn"),
  agent: id,
  id,
  sessionId: id,
  index: z.number().int().nonnegative(),
  speaker: id,
  text: z.string(),
  at: time,
  meta: record,
});

export const memoryLineSchema = obj({
  type: z.literal("memory"),
  agent: id,
  id,
  about: id,
  text: z.string(),
  kind: z.string().min(1),
  strategy: z.string().min(1),
  observedAt: time,
  recordedAt: time,
  status: z.enum(["active", "superseded", "forgotten"]),
  invalidAt: time.nullable(),
  sessionId: id.nullable(),
  sourceTurns: z.array(id),
  attributes: record,
});

export const edgeLineSchema = obj({
  type: z.literal("edge"),
  agent: id,
  id,
  from: id,
  to: id,
  edgeType: z.enum(EDGE_TYPES),
  attributes: record,
  recordedAt: time,
});

const usageSchema = obj({
  calls: z.number().nonnegative(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
});

export const operationLineSchema = obj({
  type: z.literal("operation"),
  agent: id,
  id,
  operationType: z.enum(OPERATION_TYPES),
  status: z.enum(["done", "failed"]),
  strategy: z.string().min(1),
  model: z.string(),
  sessionId: id.nullable(),
  memoryIds: z.array(id),
  inputs: z.unknown(),
  outputs: z.unknown(),
  rationale: z.string().nullable(),
  error: z.string().nullable(),
  usage: usageSchema,
  at: time,
  recordedAt: time,
});

export const embeddingLineSchema = obj({
  type: z.literal("embedding"),
  agent: id,
  ownerKind: z.enum(["memory", "turn"]),
  ownerId: id,
  model: z.string().min(1),
  /** The vector's float32 values, little-endian, base64. */
  vector: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64"),
});

const countsSchema = obj({
  sessions: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  memories: z.number().int().nonnegative(),
  edges: z.number().int().nonnegative(),
  operations: z.number().int().nonnegative(),
  embeddings: z.number().int().nonnegative(),
});
export type ExportCounts = z.infer<typeof countsSchema>;

export const endLineSchema = obj({ type: z.literal("end"), counts: countsSchema });

/** Any line after the header. */
export const rowLineSchema = z.discriminatedUnion("type", [
  sessionLineSchema,
  turnLineSchema,
  memoryLineSchema,
  edgeLineSchema,
  operationLineSchema,
  embeddingLineSchema,
  endLineSchema,
]);

export type HeaderLine = z.infer<typeof headerLineSchema>;
export type RowLine = z.infer<typeof rowLineSchema>;

/** What `export` takes: one agent's scope or the tenant's, whole or one person's part of it. */
export const exportInputSchema = obj({
  agent: idSchema
    .optional()
    .describe("the agent whose scope to export; every agent of the tenant when absent"),
  about: storedIdSchema
    .optional()
    .describe(
      "only this person's data: sessions they were in, their words, memories about them, operations on those",
    ),
  embeddings: z
    .boolean()
    .optional()
    .describe("include stored vectors (default false: the embedder recomputes them)"),
});
export type ExportInput = z.input<typeof exportInputSchema>;

export const emptyCounts = (): ExportCounts => ({
  sessions: 0,
  turns: 0,
  memories: 0,
  edges: 0,
  operations: 0,
  embeddings: 0,
});
