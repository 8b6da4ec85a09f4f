/**
 * `forget` for the SQLite store: the only erasing path, and a thorough one. What each request
 * erases (also in the README):
 *   - memoryIds: those memories, their vectors, edges and the operations that touched them;
 *   - sessionId: the session, its turns and their vectors, the memories made from it or citing
 *     its turns, the session's operations;
 *   - about X: the memories about X, the memories that carry X's words (citing X's turns) or name
 *     X, X's turns and their vectors, and the operations of the sessions X spoke in.
 * Then every text so erased is redacted wherever it still appears in the scope: other operations'
 * inputs, outputs and rationales, other turns (a reply quoting X: its vector goes too, `reindex`
 * makes a new one), other memories (deleted: they carry the erased facts). With secure_delete on
 * and the WAL checkpointed afterwards, none of it stays in the file.
 */
import type Database from "better-sqlite3";
import { InvalidInputError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { namePattern } from "../../core/text.js";
import type { Scope } from "../../core/types.js";
import type { ForgetReport, ForgetRequest } from "../memory-store.js";
import { erasedTexts, isCalendarWord, scrub } from "../redaction.js";
import type { Row } from "./rows.js";

type Db = Database.Database;

export function forgetIn(db: Db, scope: Scope, request: ForgetRequest): ForgetReport {
  if (!request.about && !request.memoryIds?.length && !request.sessionId)
    throw new InvalidInputError("forget needs `about`, `memoryIds` or `sessionId`");
  const s = [scope.tenant, scope.agent] as const;
  const ids = (sql: string, ...args: unknown[]) =>
    (
      db
        .prepare(sql)
        .pluck()
        .all(...s, ...args) as unknown[]
    ).map(String);
  const memoryIds = new Set<string>();
  const turnIds = new Set<string>();
  const sessionIds = new Set<string>();
  const scoped = ids(
    "SELECT id FROM memories WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?))",
    JSON.stringify(request.memoryIds ?? []),
  );
  for (const id of scoped) memoryIds.add(id);
  if (request.about) {
    for (const id of ids(
      "SELECT id FROM memories WHERE tenant = ? AND agent = ? AND about = ?",
      request.about,
    ))
      memoryIds.add(id);
    for (const r of db
      .prepare("SELECT id, session_id FROM turns WHERE tenant = ? AND agent = ? AND speaker = ?")
      .all(...s, request.about) as Row[]) {
      turnIds.add(String(r.id));
      sessionIds.add(String(r.session_id));
    }
    // Memories filed about someone else that name the person carry their facts too. The name is
    // matched as written (capitalised), and never when it is also a month or a weekday.
    const name = displayName(request.about);
    if (!isCalendarWord(name)) {
      const named = namePattern(name, "");
      for (const r of db
        .prepare("SELECT id, text FROM memories WHERE tenant = ? AND agent = ?")
        .all(...s) as Row[])
        if (named.test(String(r.text))) memoryIds.add(String(r.id));
    }
  }
  if (request.sessionId) {
    if (
      !db
        .prepare("SELECT 1 FROM sessions WHERE tenant = ? AND agent = ? AND id = ?")
        .get(...s, request.sessionId)
    )
      throw new InvalidInputError(`No session "${request.sessionId}" to forget`, { field: "sessionId" });
    for (const id of ids(
      "SELECT id FROM memories WHERE tenant = ? AND agent = ? AND session_id = ?",
      request.sessionId,
    ))
      memoryIds.add(id);
    for (const id of ids(
      "SELECT id FROM turns WHERE tenant = ? AND agent = ? AND session_id = ?",
      request.sessionId,
    ))
      turnIds.add(id);
    sessionIds.add(request.sessionId);
  }
  // Memories made from erased turns carry their words, whoever they are filed about.
  for (const id of ids(
    `SELECT m.id FROM memories m WHERE m.tenant = ? AND m.agent = ?
     AND EXISTS (SELECT 1 FROM json_each(m.source_turns) j WHERE j.value IN (SELECT value FROM json_each(?)))`,
    JSON.stringify([...turnIds]),
  ))
    memoryIds.add(id);

  // What the erased rows said, to be found and redacted wherever else it was copied.
  const texts = textsOf(db, s, [...memoryIds], [...turnIds]);

  const memories = JSON.stringify([...memoryIds]);
  const turns = JSON.stringify([...turnIds]);
  // An operation is deleted if it touched an erased memory, or ran over a session whose erased
  // turns its inputs may quote.
  const operations = db
    .prepare(
      `DELETE FROM operations WHERE tenant = ? AND agent = ? AND (id IN (SELECT op_id FROM operation_refs WHERE memory_id IN (SELECT value FROM json_each(?)))
       OR session_id IN (SELECT value FROM json_each(?)))`,
    )
    .run(...s, memories, JSON.stringify([...sessionIds])).changes;
  const edges = db
    .prepare(
      `DELETE FROM edges WHERE tenant = ? AND agent = ? AND (src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?)))`,
    )
    .run(...s, memories, memories).changes;
  const embeddings =
    db
      .prepare(
        `DELETE FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = 'memory' AND owner_id IN (SELECT value FROM json_each(?))`,
      )
      .run(...s, memories).changes +
    db
      .prepare(
        `DELETE FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = 'turn' AND owner_id IN (SELECT value FROM json_each(?))`,
      )
      .run(...s, turns).changes;
  const deletedMemories = db
    .prepare(`DELETE FROM memories WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?))`)
    .run(...s, memories).changes;
  db.prepare(`DELETE FROM operation_refs WHERE memory_id IN (SELECT value FROM json_each(?))`).run(memories);
  const deletedTurns = db
    .prepare(`DELETE FROM turns WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?))`)
    .run(...s, turns).changes;
  const sessions = request.sessionId
    ? db
        .prepare("DELETE FROM sessions WHERE tenant = ? AND agent = ? AND id = ?")
        .run(...s, request.sessionId).changes
    : 0;
  const redacted = redactEverywhere(db, s, texts);
  return {
    memories: deletedMemories + redacted.memories,
    edges,
    operations,
    embeddings: embeddings + redacted.embeddings,
    turns: deletedTurns,
    sessions,
    redacted: redacted.operations + redacted.turns,
  };
}

/** The texts of the erased rows, whole and as sentences long enough to be recognised when quoted. */
function textsOf(db: Db, s: readonly [string, string], memoryIds: string[], turnIds: string[]): string[] {
  const pick = (table: string, idList: string[]) =>
    db
      .prepare(
        `SELECT text FROM ${table} WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?))`,
      )
      .pluck()
      .all(...s, JSON.stringify(idList)) as string[];
  return erasedTexts(pick("memories", memoryIds), pick("turns", turnIds));
}

function redactEverywhere(
  db: Db,
  s: readonly [string, string],
  texts: string[],
): { operations: number; turns: number; memories: number; embeddings: number } {
  const counts = { operations: 0, turns: 0, memories: 0, embeddings: 0 };
  if (texts.length === 0) return counts;
  const setOp = db.prepare("UPDATE operations SET inputs = ?, outputs = ?, rationale = ? WHERE id = ?");
  for (const r of db
    .prepare("SELECT id, inputs, outputs, rationale FROM operations WHERE tenant = ? AND agent = ?")
    .all(...s) as Row[]) {
    const inputs = scrub(JSON.parse(String(r.inputs)), texts);
    const outputs = scrub(JSON.parse(String(r.outputs)), texts);
    const rationale = scrub(r.rationale ?? null, texts);
    if (inputs.changed || outputs.changed || rationale.changed) {
      setOp.run(JSON.stringify(inputs.value), JSON.stringify(outputs.value), rationale.value, r.id);
      counts.operations++;
    }
  }
  const setTurn = db.prepare("UPDATE turns SET text = ?, meta = ? WHERE tenant = ? AND agent = ? AND id = ?");
  const dropVector = db.prepare(
    "DELETE FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = ? AND owner_id = ?",
  );
  for (const r of db
    .prepare("SELECT id, text, meta FROM turns WHERE tenant = ? AND agent = ?")
    .all(...s) as Row[]) {
    const text = scrub(String(r.text), texts);
    if (!text.changed) continue;
    const meta = { ...JSON.parse(String(r.meta)), redacted: true };
    setTurn.run(text.value, JSON.stringify(meta), ...s, r.id);
    counts.embeddings += dropVector.run(...s, "turn", r.id).changes;
    counts.turns++;
  }
  // A remaining memory that repeats an erased text carries the erased fact: it goes too.
  const doomed = (
    db.prepare("SELECT id, text FROM memories WHERE tenant = ? AND agent = ?").all(...s) as Row[]
  )
    .filter((r) => scrub(String(r.text), texts).changed)
    .map((r) => String(r.id));
  if (doomed.length) {
    const list = JSON.stringify(doomed);
    db.prepare(
      `DELETE FROM edges WHERE tenant = ? AND agent = ? AND (src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?)))`,
    ).run(...s, list, list);
    counts.embeddings += db
      .prepare(
        `DELETE FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = 'memory' AND owner_id IN (SELECT value FROM json_each(?))`,
      )
      .run(...s, list).changes;
    counts.memories += db
      .prepare(
        `DELETE FROM memories WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?))`,
      )
      .run(...s, list).changes;
    db.prepare(`DELETE FROM operation_refs WHERE memory_id IN (SELECT value FROM json_each(?))`).run(list);
  }
  return counts;
}
