/**
 * Import: the lines of an export (export-format.ts) read into this store through its write path,
 * ids kept. Every line is checked before anything of its batch is written: a bad line stops the
 * import with its number, and the batch it is in is never written (batches before it are: each
 * batch of `batchRows` lines is one transaction; `check` reads a file through without writing, so
 * a caller who wants all or nothing checks first, as the CLI does). What the store records as
 * forgotten is never brought back: a session a FORGET operation names, and everything of it, is
 * skipped and counted.
 */
import type { z } from "zod";
import { ConflictError, InvalidInputError, MemlaneError } from "../../core/errors.js";
import type { Edge, Memory, Operation, Scope, Session, Turn } from "../../core/types.js";
import type { EmbeddingRecord, MemoryStore, ScopeTable, WriteBatch } from "../../store/memory-store.js";
import { SCOPE_TABLES } from "../../store/memory-store.js";
import { describeIssue, inputIssues } from "../api.js";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportCounts,
  emptyCounts,
  type HeaderLine,
  headerLineSchema,
  type RowLine,
  rowLineSchema,
} from "./export-format.js";

/** Lines written in one transaction by default. */
export const IMPORT_BATCH_ROWS = 500;

export interface ImportOptions {
  tenant: string;
  /** The export's text in chunks (a file or response stream, or the strings `export` yields). */
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  /** Lines per transaction (default 500). */
  batchRows?: number;
  /** Read and check every line, write nothing. */
  check?: boolean;
  /**
   * Vectors to write with a batch (the importing embedder's, for the rows the file carries none
   * for), so that each batch lands with its vectors in one transaction.
   */
  vectors?: (scope: Scope, batch: WriteBatch) => Promise<EmbeddingRecord[]>;
  onProgress?: (report: ImportReport) => void;
}

/** What an import wrote (or, with `check`, would write) and what it skipped as forgotten. */
export interface ImportReport {
  header: HeaderLine | null;
  lines: number;
  agents: string[];
  written: ExportCounts;
  /** Rows of sessions the store records as forgotten: never written again. */
  skipped: ExportCounts;
}

const TABLE_OF: Record<Exclude<RowLine["type"], "end">, ScopeTable> = {
  session: "sessions",
  turn: "turns",
  memory: "memories",
  edge: "edges",
  operation: "operations",
  embedding: "embeddings",
};

/** Splits a stream of text chunks into lines (a final line without its newline counts too). */
async function* linesOf(source: ImportOptions["source"]): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of source as AsyncIterable<string | Uint8Array>) {
    rest += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let at = rest.indexOf("\n");
    while (at >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
      at = rest.indexOf("\n");
    }
  }
  rest += decoder.decode();
  if (rest.length > 0) yield rest;
}

const bad = (line: number, message: string, details: Record<string, unknown> = {}) =>
  new InvalidInputError(`Line ${line}: ${message}`, { line, ...details });

function parseLine<T extends z.ZodType>(schema: T, text: string, line: number): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad(line, "not a JSON value");
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = inputIssues(parsed.error);
  const first = issues[0]!;
  throw bad(line, describeIssue(first), {
    field: first.field,
    issues: issues.map(({ field, message }) => ({ field, message })),
  });
}

function vectorOf(base64: string, line: number): Float32Array {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.byteLength % 4 !== 0) throw bad(line, "vector: not a whole number of float32 values");
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/**
 * What of one agent's scope the store records as forgotten: the sessions FORGET operations name
 * (skipped), and whether it forgot a person or memories after the export was made — a record
 * that keeps no name or id to skip by, so the import is refused.
 * @throws {ConflictError} a forget by person or by memory recorded after `exportedAt`
 */
async function forgottenSessions(
  store: MemoryStore,
  scope: Scope,
  exportedAt: string,
  line: number,
): Promise<Set<string>> {
  const forgets = await store.listOperations(scope, { type: "FORGET" });
  const inputs = (o: Operation) =>
    (o.inputs ?? {}) as { session?: unknown; about?: unknown; memories?: unknown };
  const later = forgets.find(
    (o) => o.recordedAt > exportedAt && (inputs(o).about === true || Number(inputs(o).memories) > 0),
  );
  if (later)
    throw new ConflictError(
      `Line ${line}: agent "${scope.agent}" forgot ${inputs(later).about === true ? "a person" : "memories"} at ${later.recordedAt}, after this export was made (${exportedAt}); importing it could bring back what was forgotten, so nothing of this agent is written`,
      { line, agent: scope.agent, reason: "forgotten-since-export", forgetAt: later.recordedAt, exportedAt },
    );
  const ids = forgets.map((o) => inputs(o).session).filter((s): s is string => typeof s === "string");
  return new Set(ids);
}

/** One agent's state while its lines are read. */
interface AgentState {
  scope: Scope;
  forgotten: Set<string>;
  /** Ids of rows skipped as forgotten, so that what hangs on them is skipped too. */
  skippedTurns: Set<string>;
  skippedMemories: Set<string>;
  table: number;
}

/**
 * Reads an export into the store.
 * @throws {InvalidInputError} a bad line (`details.line` is its number), a file of another format
 *   or a newer version, rows out of order, or a file cut off before its end line
 * @throws {ConflictError} a row the store holds already (ids are kept: a scope imported twice)
 */
export async function importScope(store: MemoryStore, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = {
    header: null,
    lines: 0,
    agents: [],
    written: emptyCounts(),
    skipped: emptyCounts(),
  };
  const limit = Math.max(1, Math.floor(options.batchRows ?? IMPORT_BATCH_ROWS));
  const agents = new Map<string, AgentState>();
  let current: AgentState | null = null;
  let batch = newBatch();
  let pending = emptyCounts();
  let batchRows = 0;
  let batchFrom = 0;
  let ended = false;

  const flush = async () => {
    if (current && batchRows > 0 && !options.check) {
      try {
        if (options.vectors) batch.embeddings.push(...(await options.vectors(current.scope, batch)));
        await store.write(current.scope, batch);
      } catch (error) {
        if (!(error instanceof MemlaneError)) throw error;
        throw new MemlaneError(
          error.code,
          `Lines ${batchFrom}–${report.lines - (ended ? 1 : 0)} could not be written (nothing of them was): ${error.message}`,
          { ...error.details, fromLine: batchFrom },
          error,
        );
      }
    }
    for (const k of Object.keys(pending) as (keyof ExportCounts)[]) report.written[k] += pending[k];
    batch = newBatch();
    pending = emptyCounts();
    batchRows = 0;
    options.onProgress?.(report);
  };

  for await (const text of linesOf(options.source)) {
    const n = ++report.lines;
    if (n === 1) {
      const head = safeJson(text);
      if (head?.format !== EXPORT_FORMAT)
        throw bad(1, `not a ${EXPORT_FORMAT} file (its first line is no header)`);
      if (typeof head.version === "number" && head.version > EXPORT_VERSION)
        throw bad(1, `format version ${head.version} is newer than this memlane reads (${EXPORT_VERSION})`);
      report.header = parseLine(headerLineSchema, text, 1);
      continue;
    }
    if (ended) {
      if (text.trim() === "") continue;
      throw bad(n, "a line after the end line");
    }
    const row = parseLine(rowLineSchema, text, n);
    if (row.type === "end") {
      ended = true;
      const read = sum(report.written, report.skipped, pending);
      for (const k of Object.keys(read) as (keyof ExportCounts)[])
        if (read[k] !== row.counts[k])
          throw bad(n, `the end line counts ${row.counts[k]} ${k}, the file holds ${read[k]}`);
      continue;
    }
    const header = report.header!;
    if (header.agent !== null && row.agent !== header.agent)
      throw bad(n, `agent "${row.agent}" in an export of agent "${header.agent}"`, { field: "agent" });
    if (row.type === "embedding" && !header.embeddings)
      throw bad(n, "an embedding in an export whose header says it has none");
    if (current?.scope.agent !== row.agent) {
      if (agents.has(row.agent)) throw bad(n, `agent "${row.agent}"'s lines are not together`);
      await flush();
      const scope: Scope = { tenant: options.tenant, agent: row.agent };
      current = {
        scope,
        forgotten: await forgottenSessions(store, scope, report.header!.exportedAt, n),
        skippedTurns: new Set(),
        skippedMemories: new Set(),
        table: 0,
      };
      agents.set(row.agent, current);
      report.agents.push(row.agent);
    }
    const state: AgentState = current;
    const table = SCOPE_TABLES.indexOf(TABLE_OF[row.type]);
    if (table < state.table)
      throw bad(
        n,
        `a ${row.type} after the ${SCOPE_TABLES[state.table]} (rows go ${SCOPE_TABLES.join(", ")})`,
      );
    state.table = table;
    if (batchRows === 0) batchFrom = n;
    const kept = add(state, row, batch, n);
    const counts = kept ? pending : report.skipped;
    counts[TABLE_OF[row.type] as keyof ExportCounts]++;
    if (kept) batchRows++;
    if (batchRows >= limit) await flush();
  }
  if (report.lines === 0) throw bad(1, `empty: a ${EXPORT_FORMAT} file starts with its header`);
  if (!ended) throw bad(report.lines + 1, "the file ends before its end line (cut off?)");
  await flush();
  return report;
}

/** A batch being filled: every list there from the start. */
interface Batch extends WriteBatch {
  sessions: Session[];
  turns: Turn[];
  memories: Memory[];
  edges: Edge[];
  operations: Operation[];
  embeddings: EmbeddingRecord[];
}
const newBatch = (): Batch => ({
  sessions: [],
  turns: [],
  memories: [],
  edges: [],
  operations: [],
  embeddings: [],
});

const safeJson = (text: string): Record<string, unknown> | null => {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" ? v : null;
  } catch {
    return null;
  }
};

function sum(...all: ExportCounts[]): ExportCounts {
  const out = emptyCounts();
  for (const c of all) for (const k of Object.keys(out) as (keyof ExportCounts)[]) out[k] += c[k];
  return out;
}

/** Puts a checked row into the batch, or leaves it out (false) when it is of something forgotten. */
function add(state: AgentState, row: Exclude<RowLine, { type: "end" }>, batch: Batch, line: number): boolean {
  const { tenant } = state.scope;
  const gone = (sessionId: string | null) => sessionId !== null && state.forgotten.has(sessionId);
  switch (row.type) {
    case "session": {
      if (gone(row.id)) return false;
      const { type: _, ...s } = row;
      batch.sessions.push({ ...s, tenant } satisfies Session);
      return true;
    }
    case "turn": {
      if (gone(row.sessionId)) {
        state.skippedTurns.add(row.id);
        return false;
      }
      const { type: _, ...t } = row;
      batch.turns.push({ ...t, tenant } satisfies Turn);
      return true;
    }
    case "memory": {
      if (gone(row.sessionId) || row.sourceTurns.some((t) => state.skippedTurns.has(t))) {
        state.skippedMemories.add(row.id);
        return false;
      }
      const { type: _, ...m } = row;
      batch.memories.push({ ...m, tenant } satisfies Memory);
      return true;
    }
    case "edge": {
      if (state.skippedMemories.has(row.from) || state.skippedMemories.has(row.to)) return false;
      if (row.from === row.to) throw bad(line, "an edge from a memory to itself");
      const { type: _, edgeType, ...e } = row;
      batch.edges.push({ ...e, type: edgeType, tenant } satisfies Edge);
      return true;
    }
    case "operation": {
      if (row.operationType !== "FORGET" && gone(row.sessionId)) return false;
      const { type: _, operationType, ...o } = row;
      batch.operations.push({ ...o, type: operationType, tenant } satisfies Operation);
      return true;
    }
    case "embedding": {
      const skipped = row.ownerKind === "memory" ? state.skippedMemories : state.skippedTurns;
      if (skipped.has(row.ownerId)) return false;
      batch.embeddings.push({
        ownerKind: row.ownerKind,
        ownerId: row.ownerId,
        model: row.model,
        vector: vectorOf(row.vector, line),
      });
      return true;
    }
  }
}
