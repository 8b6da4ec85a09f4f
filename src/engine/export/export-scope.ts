/**
 * Export: a scope (one agent's, or every agent's of the tenant), whole or one person's part of
 * it, as the lines of the export format (export-format.ts), read from the store a page at a time
 * so that a scope of any size streams in constant memory (a person's part holds the ids of that
 * person's turns, sessions and memories, never the scope's).
 */
import { NotFoundError } from "../../core/errors.js";
import type { Edge, Memory, Operation, Scope, Session, Turn } from "../../core/types.js";
import type { EmbeddingRecord, MemoryStore, ScopePage, ScopeTable } from "../../store/memory-store.js";
import { vectorToBlob } from "../../store/sql/rows.js";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportCounts,
  emptyCounts,
  type HeaderLine,
  type RowLine,
} from "./export-format.js";

/** Rows read from the store at once. */
export const EXPORT_PAGE_ROWS = 1000;

export interface ExportOptions {
  tenant: string;
  /** The agents whose scopes to export, in this order. */
  agents: string[];
  /** True when `agents` are every agent of the tenant (the header then names none). */
  all?: boolean;
  /** Only this person's part of each scope. */
  about?: string;
  embeddings?: boolean;
  /** Told the counts so far after every page, for a progress line. */
  onProgress?: (counts: ExportCounts) => void;
}

/** Each table's rows. */
interface RowsOf {
  sessions: Session[];
  turns: Turn[];
  memories: Memory[];
  edges: Edge[];
  operations: Operation[];
  embeddings: EmbeddingRecord[];
}

/** Every row of one table of a scope, page by page (the whole table when the store cannot page). */
async function* rowsOf<T extends ScopeTable>(
  store: MemoryStore,
  scope: Scope,
  table: T,
): AsyncGenerator<RowsOf[T]> {
  type Rows = RowsOf[T];
  if (!store.readPage) {
    yield (await readWhole(store, scope, table)) as Rows;
    return;
  }
  let after: string[] | null = null;
  for (;;) {
    const page: ScopePage = await store.readPage(scope, table, after, EXPORT_PAGE_ROWS);
    if (page.rows.length > 0) yield page.rows as Rows;
    if (!page.next) return;
    after = page.next;
  }
}

/** A store without paged reads, read whole (every status), in the paged reads' key order. */
async function readWhole(store: MemoryStore, scope: Scope, table: ScopeTable): Promise<unknown[]> {
  const byId = <X extends { id: string }>(xs: X[]) =>
    xs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  switch (table) {
    case "sessions":
      return byId(await store.listSessions(scope));
    case "turns":
      return byId(await store.listTurns(scope));
    case "memories":
      return byId(await store.listMemories(scope, { status: "any" }));
    case "edges":
      return byId(await store.listEdges(scope));
    case "operations":
      return byId(await store.listOperations(scope));
    case "embeddings":
      // Vectors are read by owner and model only; such a store exports none (they are recomputed).
      return [];
  }
}

const sessionLine = ({ tenant: _, ...s }: Session): RowLine => ({
  type: "session",
  agent: s.agent,
  id: s.id,
  partners: s.partners,
  at: s.at,
  status: s.status,
  strategy: s.strategy,
  meta: s.meta,
  recordedAt: s.recordedAt,
});
const turnLine = (t: Turn): RowLine => ({
  type: "turn",
  agent: t.agent,
  id: t.id,
  sessionId: t.sessionId,
  index: t.index,
  speaker: t.speaker,
  text: t.text,
  at: t.at,
  meta: t.meta,
});
const memoryLine = (m: Memory): RowLine => ({
  type: "memory",
  agent: m.agent,
  id: m.id,
  about: m.about,
  text: m.text,
  kind: m.kind,
  strategy: m.strategy,
  observedAt: m.observedAt,
  recordedAt: m.recordedAt,
  status: m.status,
  invalidAt: m.invalidAt,
  sessionId: m.sessionId,
  sourceTurns: m.sourceTurns,
  attributes: m.attributes,
});
const edgeLine = (e: Edge): RowLine => ({
  type: "edge",
  agent: e.agent,
  id: e.id,
  from: e.from,
  to: e.to,
  edgeType: e.type,
  attributes: e.attributes,
  recordedAt: e.recordedAt,
});
const operationLine = (o: Operation): RowLine => ({
  type: "operation",
  agent: o.agent,
  id: o.id,
  operationType: o.type,
  status: o.status,
  strategy: o.strategy,
  model: o.model,
  sessionId: o.sessionId,
  memoryIds: o.memoryIds,
  inputs: o.inputs ?? null,
  outputs: o.outputs ?? null,
  rationale: o.rationale,
  error: o.error,
  usage: o.usage,
  at: o.at,
  recordedAt: o.recordedAt,
});
const embeddingLine = (agent: string, e: EmbeddingRecord): RowLine => ({
  type: "embedding",
  agent,
  ownerKind: e.ownerKind,
  ownerId: e.ownerId,
  model: e.model,
  vector: vectorToBlob(e.vector).toString("base64"),
});

/**
 * What of a scope is a person's: the sessions they were in (a partner, or a speaker), the turns
 * they spoke and the agent's own turns in those sessions (what they heard from it; other people's
 * words stay out, they are those people's), the memories about them or carrying their words (citing
 * their turns), every version included, and the edges and operations among those memories.
 */
interface PersonPart {
  sessions: Set<string>;
  turns: Set<string>;
  memories: Set<string>;
}

/**
 * The export's lines, header first and end line last, as objects (`exportLines` makes text).
 * @throws {NotFoundError} `about` names no one any exported scope knows
 */
export async function* exportRecords(
  store: MemoryStore,
  options: ExportOptions,
): AsyncGenerator<HeaderLine | RowLine> {
  const counts = emptyCounts();
  const header: HeaderLine = {
    type: "header",
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    tenant: options.tenant,
    agent: options.all ? null : (options.agents[0] ?? null),
    about: options.about ?? null,
    embeddings: options.embeddings ?? false,
    exportedAt: new Date().toISOString(),
  };
  // A person no scope knows is refused before a line is written, as forget refuses one.
  const parts = new Map<string, PersonPart>();
  if (options.about !== undefined) {
    for (const agent of options.agents)
      parts.set(agent, await personPart(store, { tenant: options.tenant, agent }, options.about));
    const known = [...parts.values()].some((p) => p.sessions.size + p.turns.size + p.memories.size > 0);
    if (!known)
      throw new NotFoundError(`No one called "${options.about}" in the exported memory`, { field: "about" });
  }
  yield header;
  const progress = () => options.onProgress?.({ ...counts });
  for (const agent of options.agents) {
    const scope = { tenant: options.tenant, agent };
    const part = parts.get(agent);
    for await (const rows of rowsOf(store, scope, "sessions")) {
      for (const s of rows)
        if (!part || part.sessions.has(s.id)) {
          counts.sessions++;
          yield sessionLine(s);
        }
      progress();
    }
    for await (const rows of rowsOf(store, scope, "turns")) {
      for (const t of rows)
        if (!part || part.turns.has(t.id) || (t.speaker === agent && part.sessions.has(t.sessionId))) {
          part?.turns.add(t.id);
          counts.turns++;
          yield turnLine(t);
        }
      progress();
    }
    for await (const rows of rowsOf(store, scope, "memories")) {
      for (const m of rows)
        if (!part || part.memories.has(m.id)) {
          counts.memories++;
          yield memoryLine(m);
        }
      progress();
    }
    for await (const rows of rowsOf(store, scope, "edges")) {
      for (const e of rows)
        if (!part || (part.memories.has(e.from) && part.memories.has(e.to))) {
          counts.edges++;
          yield edgeLine(e);
        }
      progress();
    }
    for await (const rows of rowsOf(store, scope, "operations")) {
      for (const o of rows)
        if (!part || o.memoryIds.some((id) => part.memories.has(id))) {
          counts.operations++;
          yield operationLine(o);
        }
      progress();
    }
    if (options.embeddings)
      for await (const rows of rowsOf(store, scope, "embeddings")) {
        for (const e of rows)
          if (!part || (e.ownerKind === "memory" ? part.memories : part.turns).has(e.ownerId)) {
            counts.embeddings++;
            yield embeddingLine(agent, e);
          }
        progress();
      }
  }
  progress();
  yield { type: "end", counts };
}

/** The ids of a person's part of one scope (see PersonPart), read a page at a time. */
async function personPart(store: MemoryStore, scope: Scope, person: string): Promise<PersonPart> {
  const part: PersonPart = { sessions: new Set(), turns: new Set(), memories: new Set() };
  for await (const rows of rowsOf(store, scope, "turns"))
    for (const t of rows)
      if (t.speaker === person) {
        part.turns.add(t.id);
        part.sessions.add(t.sessionId);
      }
  for await (const rows of rowsOf(store, scope, "sessions"))
    for (const s of rows) if (s.partners.includes(person)) part.sessions.add(s.id);
  for await (const rows of rowsOf(store, scope, "memories"))
    for (const m of rows)
      if (m.about === person || m.sourceTurns.some((t) => part.turns.has(t))) part.memories.add(m.id);
  return part;
}

/** The export as text, one JSON line at a time (each ends with a newline). */
export async function* exportLines(store: MemoryStore, options: ExportOptions): AsyncGenerator<string> {
  for await (const record of exportRecords(store, options)) yield `${JSON.stringify(record)}\n`;
}
