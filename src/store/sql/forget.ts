/**
 * `forget`, written once for every SQL store (the only erasing path, and a thorough one). What
 * each request erases (also in docs/storage.md):
 *   - memoryIds: those memories and their earlier forms (what they superseded or fused, past
 *     versions only: one a restore made current again stays), their vectors, edges and the
 *     operations that touched them;
 *   - sessionId: the session, its turns and their vectors, the memories made from it or citing
 *     its turns, the session's operations;
 *   - about X: the memories about X, the memories that carry X's words (citing X's turns) or name
 *     X, X's turns, the replies that answered X (`repliesTo`), their vectors, and the operations
 *     of the sessions X spoke in.
 * For a session or a person, a version that only an erased current memory had replaced is current
 * again (`reactivate`). Then what the erased people said and what was remembered is looked for in
 * what remains of the scope: verbatim copies are redacted in operations and turns (a memory
 * repeating one goes), and a sentence of the agent's own words that tells an erased fact back is
 * redacted (`quoteFinder`, near the erased words and far from them). A redacted turn loses its
 * vector until `reindex`, and carries `redactedAt` for the write plan's race check. The request's
 * FORGET record is written by the caller in the same transaction.
 *
 * Its passes over every row of the scope yield `PAUSE` row by row: on Postgres the event loop
 * runs there once a slice is spent, so the redaction of a large scope never holds the serving
 * thread; on SQLite the program runs in one synchronous transaction (on a thread of its own for
 * a file, sqlite/forget-worker.ts) and the pauses cost nothing.
 */
import { InvalidInputError, NotFoundError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { namePattern } from "../../core/text.js";
import type { Scope } from "../../core/types.js";
import type { ForgetReport, ForgetRequest } from "../memory-store.js";
import { forgetInTranscripts, pendingOf, sameId } from "../pending-forget.js";
import {
  ErasedTexts,
  erasedTexts,
  isCalendarWord,
  QuoteEvidence,
  type quoteFinder,
  repliesTo,
  Scrubber,
} from "../redaction.js";
import { change, PAUSE, type SqlDialect, type SqlProgram, select } from "./program.js";
import { jsonColumn } from "./rows.js";

type Row = Record<string, unknown>;

const json = jsonColumn;
/** Text memlane wrote itself (a reply): marked in the turn's meta. */
const isGenerated = (meta: unknown) => (json(meta) as { generated?: unknown }).generated === true;

export function* forgetProgram(
  d: SqlDialect,
  scope: Scope,
  request: ForgetRequest,
): SqlProgram<ForgetReport> {
  if (!request.about && !request.memoryIds?.length && !request.sessionId)
    throw new InvalidInputError("forget needs `about`, `memoryIds` or `sessionId`");
  const s = [scope.tenant, scope.agent] as const;
  const inScope = "tenant = ? AND agent = ?";
  // Uploads the store's database holds for the tenant, not stored yet: the forget reaches them too.
  const jobs: { id: string; transcripts: unknown[] }[] = [];
  const pending: { people: string[]; sessions: string[] }[] = [];
  for (const r of yield* select(
    "SELECT id, transcripts FROM ingest_jobs WHERE tenant = ? AND state IN ('queued','running') AND transcripts IS NOT NULL",
    scope.tenant,
  )) {
    const transcripts = JSON.parse(String(r.transcripts)) as unknown[];
    jobs.push({ id: String(r.id), transcripts });
    pending.push(pendingOf(transcripts, scope.agent));
    yield PAUSE;
  }
  const about = request.about === undefined ? undefined : yield* knownPerson(scope, request, pending);
  if (request.sessionId !== undefined) {
    const id = request.sessionId;
    const stored = yield* select(`SELECT 1 AS one FROM sessions WHERE ${inScope} AND id = ?`, ...s, id);
    const waiting = [...pending, request.pending ?? { sessions: [] }].some((p) =>
      p.sessions.some((x) => sameId(x, id)),
    );
    if (stored.length === 0 && !waiting)
      throw new NotFoundError(`No session "${id}" for agent "${scope.agent}"`, { field: "sessionId" });
  }
  const memoryRows = yield* select(
    `SELECT id, about, text, source_turns, attributes, session_id, status FROM memories WHERE ${inScope}`,
    ...s,
  );
  const memoryIds = new Set<string>();
  const turnIds = new Set<string>();
  const sessionIds = new Set<string>();
  const known = new Set(memoryRows.map((r) => String(r.id)));
  for (const id of request.memoryIds ?? []) if (known.has(id)) memoryIds.add(id);

  if (about) {
    for (const r of memoryRows) if (r.about === about) memoryIds.add(String(r.id));
    for (const r of yield* select(
      `SELECT id, session_id FROM turns WHERE ${inScope} AND speaker = ?`,
      ...s,
      about,
    )) {
      turnIds.add(String(r.id));
      sessionIds.add(String(r.session_id));
    }
    // The replies that answered them tell their facts back: they go with their words.
    if (sessionIds.size) {
      const spoken = yield* select(
        `SELECT id, session_id, speaker, text, meta FROM turns WHERE ${inScope} AND session_id IN ${d.members} ORDER BY session_id, idx`,
        ...s,
        d.list([...sessionIds]),
      );
      // In a conversation between agents, every agent's words are replies.
      const agentsOf = new Map<string, string[]>();
      const partnersOf = new Map<string, string[]>();
      for (const r of yield* select(
        `SELECT id, meta, partners FROM sessions WHERE ${inScope} AND id IN ${d.members}`,
        ...s,
        d.list([...sessionIds]),
      )) {
        const agents = (json(r.meta) as { agents?: unknown }).agents;
        agentsOf.set(String(r.id), Array.isArray(agents) ? agents.map(String) : []);
        partnersOf.set(String(r.id), (json(r.partners) as string[]).map(String));
        yield PAUSE;
      }
      const bySession = new Map<string, Row[]>();
      for (const r of spoken) {
        const list = bySession.get(String(r.session_id));
        if (list) list.push(r);
        else bySession.set(String(r.session_id), [r]);
      }
      for (const [sessionId, turns] of bySession) {
        yield PAUSE;
        for (const id of repliesTo(
          turns.map((r) => ({
            id: String(r.id),
            speaker: String(r.speaker),
            text: String(r.text),
            generated: isGenerated(r.meta),
          })),
          [scope.agent, ...(agentsOf.get(sessionId) ?? [])],
          about,
          partnersOf.get(sessionId) ?? [],
        ))
          turnIds.add(id);
      }
    }
    // Memories filed about someone else that name the person carry their facts too. The name is
    // matched as written (capitalised), and never when it is also a month or a weekday.
    const name = displayName(about);
    if (!isCalendarWord(name)) {
      const named = namePattern(name, "");
      for (const r of memoryRows) {
        if (named.test(String(r.text))) memoryIds.add(String(r.id));
        yield PAUSE;
      }
    }
  }
  if (request.sessionId) {
    for (const r of memoryRows) if (r.session_id === request.sessionId) memoryIds.add(String(r.id));
    for (const r of yield* select(
      `SELECT id FROM turns WHERE ${inScope} AND session_id = ?`,
      ...s,
      request.sessionId,
    ))
      turnIds.add(String(r.id));
    sessionIds.add(request.sessionId);
  }
  // Memories made from erased turns carry their words, whoever they are filed about.
  for (const r of memoryRows) {
    if ((json(r.source_turns) as string[]).some((t) => turnIds.has(t))) memoryIds.add(String(r.id));
    yield PAUSE;
  }
  // A memory asked for by id goes with its earlier forms (what it superseded, what was fused into
  // it). A memory that goes with a session or a person only takes itself: a version it had
  // replaced, learned elsewhere, is current again (the change that retired it is forgotten).
  const links = yield* select(
    "SELECT src, dst, type FROM edges WHERE tenant = ? AND agent = ? AND type IN ('Supersedes', 'FusedInto')",
    ...s,
  );
  const earlier = earlierForms(links);
  // A version a restore made current again is no earlier form any more: forgetting the correction
  // it walked back must not take the memory that holds now.
  const current = new Set(memoryRows.filter((r) => r.status === "active").map((r) => String(r.id)));
  if (request.memoryIds?.length) addEarlier(earlier, memoryIds, new Set(request.memoryIds), current);

  // What the erased rows said, to be found and redacted wherever else it was copied. A fused
  // memory also carries the statement it was fused from.
  // Gathered a row at a time (tokenizing every erased text is long work on a large scope).
  const verbatimTexts = new ErasedTexts();
  const evidence = new QuoteEvidence(about);
  for (const r of memoryRows) {
    if (!memoryIds.has(String(r.id))) continue;
    const from = (json(r.attributes) as { fusedFrom?: { summary?: unknown } }).fusedFrom;
    for (const text of [String(r.text), ...(typeof from?.summary === "string" ? [from.summary] : [])]) {
      verbatimTexts.addMemory(text);
      evidence.add(text);
    }
    yield PAUSE;
  }
  const erasedTurns = turnIds.size
    ? yield* select(
        `SELECT text, speaker, meta FROM turns WHERE ${inScope} AND id IN ${d.members}`,
        ...s,
        d.list([...turnIds]),
      )
    : [];
  // The evidence of a copy or a quote is what the erased people said and what was remembered,
  // never the agent's own erased replies (their stock phrases are everyone's; the replies
  // themselves are gone, and the log of their sessions with them).
  for (const r of erasedTurns) {
    if (r.speaker === scope.agent || isGenerated(r.meta)) continue;
    verbatimTexts.addTurn(String(r.text));
    evidence.add(String(r.text));
    yield PAUSE;
  }
  const verbatim = verbatimTexts.list();
  const quotes = evidence.finder();

  const memories = d.list([...memoryIds]);
  const turns = d.list([...turnIds]);
  // An operation is deleted if it touched an erased memory, or ran over a session whose erased
  // turns its inputs may quote. Its refs go with it (ON DELETE CASCADE).
  const refs = refsOf(d, s);
  const operations = yield* change(
    `DELETE FROM operations WHERE ${inScope} AND (session_id IN ${d.members}
     OR id IN (SELECT op_id FROM operation_refs WHERE ${refs.where}memory_id IN ${d.members}))`,
    ...s,
    d.list([...sessionIds]),
    ...refs.params,
    memories,
  );
  const erased = yield* eraseMemories(d, s, memories);
  const turnVectors = yield* change(
    `DELETE FROM embeddings WHERE ${inScope} AND owner_kind = 'turn' AND owner_id IN ${d.members}`,
    ...s,
    turns,
  );
  const deletedTurns = yield* change(
    `DELETE FROM turns WHERE ${inScope} AND id IN ${d.members}`,
    ...s,
    turns,
  );
  const sessions = request.sessionId
    ? yield* change(`DELETE FROM sessions WHERE ${inScope} AND id = ?`, ...s, request.sessionId)
    : 0;
  const redacted = yield* redactEverywhere(d, s, scope.agent, verbatim, quotes, sessionIds);
  // Versions that only an erased memory had replaced are current again.
  const wasActive = new Set(memoryRows.filter((r) => r.status === "active").map((r) => String(r.id)));
  yield* reactivate(d, s, earlier, memoryIds, wasActive);
  // What the uploads still hold goes in the same transaction: a job resumed or taken over later
  // stores the rest of its transcripts, and nothing of what was forgotten.
  for (const j of jobs) {
    yield PAUSE;
    const left = forgetInTranscripts(j.transcripts, scope.agent, {
      sessionId: request.sessionId,
      about,
      known: true,
    });
    if (left === null) continue;
    yield* change(
      "UPDATE ingest_jobs SET transcripts = ? WHERE tenant = ? AND id = ?",
      JSON.stringify(left),
      scope.tenant,
      j.id,
    );
  }
  return {
    memories: erased.memories + redacted.memories,
    edges: erased.edges + redacted.edges,
    operations,
    embeddings: erased.embeddings + turnVectors + redacted.embeddings,
    turns: deletedTurns,
    sessions,
    redacted: redacted.operations + redacted.turns,
  };
}

/**
 * The person `about` names: a partner or speaker of the scope's sessions, an agent of its
 * conversations, or one of its pending uploads (the store's jobs, the process's `pending`), as
 * stored (ids compare in NFC). A word that names no one is refused with the names there are: a
 * forget by person never matches text that merely contains the word ("it", "the").
 */
function* knownPerson(
  scope: Scope,
  request: ForgetRequest,
  pending: { people: string[] }[],
): SqlProgram<string> {
  const about = request.about!;
  const s = [scope.tenant, scope.agent] as const;
  const known = new Set<string>();
  for (const r of yield* select("SELECT partners, meta FROM sessions WHERE tenant = ? AND agent = ?", ...s)) {
    for (const p of json(r.partners) as unknown[]) known.add(String(p));
    const agents = (json(r.meta) as { agents?: unknown }).agents;
    if (Array.isArray(agents)) for (const a of agents) known.add(String(a));
    yield PAUSE;
  }
  for (const r of yield* select("SELECT DISTINCT speaker FROM turns WHERE tenant = ? AND agent = ?", ...s))
    known.add(String(r.speaker));
  for (const p of [...pending, request.pending ?? { people: [] }]) for (const x of p.people) known.add(x);
  known.delete(scope.agent);
  const person = known.has(about) ? about : [...known].find((k) => sameId(k, about));
  if (person !== undefined) return person;
  const names = [...known].sort();
  const shown = names
    .slice(0, 50)
    .map((n) => `"${n}"`)
    .join(", ");
  throw new NotFoundError(
    names.length
      ? `No one called "${about}" in the memory of "${scope.agent}"; the people it knows: ${shown}${names.length > 50 ? `, … (${names.length} in all)` : ""}`
      : `No one called "${about}" in the memory of "${scope.agent}": it knows no one yet`,
    { field: "about", known: names.slice(0, 100) },
  );
}

/** For each memory, the memories it superseded or absorbed by fusion (Supersedes: newer -> older; FusedInto: older -> fused). */
function earlierForms(links: Record<string, unknown>[]): Map<string, string[]> {
  const earlier = new Map<string, string[]>();
  for (const e of links) {
    const newer = String(e.type === "Supersedes" ? e.src : e.dst);
    const older = String(e.type === "Supersedes" ? e.dst : e.src);
    earlier.set(newer, [...(earlier.get(newer) ?? []), older]);
  }
  return earlier;
}

/** Adds to `ids`, transitively, the earlier forms of `from` that are past (not in `current`). */
function addEarlier(
  earlier: Map<string, string[]>,
  ids: Set<string>,
  from: Set<string>,
  current: Set<string>,
): void {
  const queue = [...from];
  while (queue.length)
    for (const older of earlier.get(queue.pop()!) ?? [])
      if (!ids.has(older) && !current.has(older)) {
        ids.add(older);
        queue.push(older);
      }
}

/**
 * Makes current again a kept memory whose later forms were all erased when one of them was the
 * current one: the change that retired it is forgotten. A later form that was itself past (a
 * middle version, one a DELETE retired) brings nothing back, and neither does one whose chain
 * goes on to a kept memory: two versions of a fact are never current at once.
 */
function* reactivate(
  d: SqlDialect,
  s: readonly [string, string],
  earlier: Map<string, string[]>,
  erased: Set<string>,
  wasActive: Set<string>,
): SqlProgram<void> {
  const laterOf = new Map<string, string[]>();
  for (const [newer, olders] of earlier)
    for (const older of olders) laterOf.set(older, [...(laterOf.get(older) ?? []), newer]);
  const keptDownstream = (id: string, seen = new Set<string>()): boolean => {
    for (const n of laterOf.get(id) ?? []) {
      if (seen.has(n)) continue;
      seen.add(n);
      if (!erased.has(n) || keptDownstream(n, seen)) return true;
    }
    return false;
  };
  const again = [...laterOf]
    .filter(
      ([older, later]) =>
        !erased.has(older) &&
        later.every((n) => erased.has(n)) &&
        later.some((n) => wasActive.has(n)) &&
        !keptDownstream(older),
    )
    .map(([older]) => older);
  if (again.length === 0) return;
  yield* change(
    `UPDATE memories SET status = 'active', invalid_at = NULL WHERE tenant = ? AND agent = ? AND status = 'superseded' AND id IN ${d.members}`,
    ...s,
    d.list(again),
  );
}

/** Deletes memories with their edges, vectors and operation refs. */
function* eraseMemories(
  d: SqlDialect,
  s: readonly [string, string],
  list: unknown,
): SqlProgram<{ memories: number; edges: number; embeddings: number }> {
  const inScope = "tenant = ? AND agent = ?";
  const edges = yield* change(
    `DELETE FROM edges WHERE ${inScope} AND (src IN ${d.members} OR dst IN ${d.members})`,
    ...s,
    list,
    list,
  );
  const embeddings = yield* change(
    `DELETE FROM embeddings WHERE ${inScope} AND owner_kind = 'memory' AND owner_id IN ${d.members}`,
    ...s,
    list,
  );
  const refs = refsOf(d, s);
  yield* change(
    `DELETE FROM operation_refs WHERE ${refs.where}memory_id IN ${d.members} AND op_id IN (SELECT id FROM operations WHERE ${inScope})`,
    ...refs.params,
    list,
    ...s,
  );
  const memories = yield* change(`DELETE FROM memories WHERE ${inScope} AND id IN ${d.members}`, ...s, list);
  return { memories, edges, embeddings };
}

function* redactEverywhere(
  d: SqlDialect,
  s: readonly [string, string],
  agent: string,
  erased: string[],
  quotes: ReturnType<typeof quoteFinder>,
  near: Set<string>,
): SqlProgram<{ operations: number; turns: number; memories: number; edges: number; embeddings: number }> {
  const counts = { operations: 0, turns: 0, memories: 0, edges: 0, embeddings: 0 };
  const inScope = "tenant = ? AND agent = ?";
  const texts = [...erased];
  let scrubber = new Scrubber(texts);
  // When: a consolidation that read a turn before this moment and writes after it is refused
  // (the write plan's requireTurns), so a redacted fact cannot come back through it.
  const redactedAt = new Date().toISOString();
  // Turns: verbatim copies anywhere; in the agent's own words and generated replies, facts told
  // back (read closely in the sessions the erased words were said in, by name and number elsewhere).
  const redactedTurns = new Set<string>();
  const toldBack: string[] = [];
  for (const r of yield* select(
    `SELECT id, session_id, speaker, text, meta FROM turns WHERE ${inScope}`,
    ...s,
  )) {
    yield PAUSE;
    const meta = json(r.meta) as Record<string, unknown>;
    let text: { value: unknown; changed: boolean } = scrubber.value(String(r.text));
    if (r.speaker === agent || meta.generated === true) {
      const told = quotes(String(text.value), near.has(String(r.session_id)) ? "near" : "far");
      if (told.changed) {
        text = told;
        toldBack.push(...told.removed);
      }
    }
    if (!text.changed) continue;
    yield* change(
      `UPDATE turns SET text = ?, meta = ? WHERE ${inScope} AND id = ?`,
      text.value,
      JSON.stringify({ ...meta, redacted: true, redactedAt }),
      ...s,
      r.id,
    );
    counts.embeddings += yield* change(
      `DELETE FROM embeddings WHERE ${inScope} AND owner_kind = 'turn' AND owner_id = ?`,
      ...s,
      r.id,
    );
    redactedTurns.add(String(r.id));
    counts.turns++;
  }
  // Memories: one that repeats an erased text, or was made from a redacted turn and tells the
  // same fact back, carries the erased fact: it goes too, and its text is looked for in the log.
  const doomed: Row[] = [];
  for (const r of yield* select(`SELECT id, text, source_turns FROM memories WHERE ${inScope}`, ...s)) {
    yield PAUSE;
    if (
      scrubber.value(String(r.text)).changed ||
      ((json(r.source_turns) as string[]).some((t) => redactedTurns.has(t)) &&
        quotes(String(r.text), "near").changed)
    )
      doomed.push(r);
  }
  // The sentences told back are looked for in the log too.
  texts.push(...erasedTexts(toldBack, []));
  if (doomed.length) {
    texts.push(
      ...erasedTexts(
        doomed.map((r) => String(r.text)),
        [],
      ),
    );
    const gone = yield* eraseMemories(d, s, d.list(doomed.map((r) => String(r.id))));
    counts.memories += gone.memories;
    counts.edges += gone.edges;
    counts.embeddings += gone.embeddings;
  }
  // The log: inputs, outputs and rationales quoting anything erased.
  scrubber = new Scrubber(texts);
  if (texts.length)
    for (const r of yield* select(
      `SELECT id, inputs, outputs, rationale FROM operations WHERE ${inScope}`,
      ...s,
    )) {
      yield PAUSE;
      const inputs = scrubber.value(json(r.inputs));
      const outputs = scrubber.value(json(r.outputs));
      const rationale = scrubber.value(r.rationale ?? null);
      if (!inputs.changed && !outputs.changed && !rationale.changed) continue;
      yield* change(
        `UPDATE operations SET inputs = ?, outputs = ?, rationale = ? WHERE ${inScope} AND id = ?`,
        JSON.stringify(inputs.value),
        JSON.stringify(outputs.value),
        rationale.value,
        ...s,
        r.id,
      );
      counts.operations++;
    }
  return counts;
}

/** The scope's part of a query on operation_refs, where the table keeps the scope (Postgres: its index leads with it). */
function refsOf(d: SqlDialect, s: readonly [string, string]): { where: string; params: unknown[] } {
  return d.refColumns({ tenant: s[0], agent: s[1] }).some(([name]) => name === "tenant")
    ? { where: "tenant = ? AND agent = ? AND ", params: [...s] }
    : { where: "", params: [] };
}
