/**
 * `forget` for the Postgres store, inside the caller's transaction: the same requests, the same
 * rows erased and the same redaction of copies as the SQLite store (store/sqlite/forget.ts; the
 * README lists what each request erases). Deleted rows are gone for every reader at commit;
 * their bytes stay in dead tuples and the WAL until VACUUM and checkpoints recycle them.
 */
import { InvalidInputError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { namePattern } from "../../core/text.js";
import type { Scope } from "../../core/types.js";
import type { ForgetReport, ForgetRequest } from "../memory-store.js";
import { erasedTexts, isCalendarWord, scrub } from "../redaction.js";
import type { SqlQueryable } from "./sql-client.js";

export async function forgetIn(
  tx: SqlQueryable,
  scope: Scope,
  request: ForgetRequest,
): Promise<ForgetReport> {
  if (!request.about && !request.memoryIds?.length && !request.sessionId)
    throw new InvalidInputError("forget needs `about`, `memoryIds` or `sessionId`");
  const s = [scope.tenant, scope.agent];
  const ids = async (sql: string, ...args: unknown[]) =>
    (await tx.query<{ id: string }>(sql, [...s, ...args])).rows.map((r) => String(r.id));
  const count = async (sql: string, ...args: unknown[]) => (await tx.query(sql, [...s, ...args])).rowCount;
  const memoryIds = new Set<string>();
  const turnIds = new Set<string>();
  const sessionIds = new Set<string>();
  for (const id of await ids(
    "SELECT id FROM memories WHERE tenant = $1 AND agent = $2 AND id = ANY($3::text[])",
    request.memoryIds ?? [],
  ))
    memoryIds.add(id);
  if (request.about) {
    for (const id of await ids(
      "SELECT id FROM memories WHERE tenant = $1 AND agent = $2 AND about = $3",
      request.about,
    ))
      memoryIds.add(id);
    const spoken = await tx.query<{ id: string; session_id: string }>(
      "SELECT id, session_id FROM turns WHERE tenant = $1 AND agent = $2 AND speaker = $3",
      [...s, request.about],
    );
    for (const r of spoken.rows) {
      turnIds.add(r.id);
      sessionIds.add(r.session_id);
    }
    // Memories filed about someone else that name the person carry their facts too. The name is
    // matched as written (capitalised), and never when it is also a month or a weekday.
    const name = displayName(request.about);
    if (!isCalendarWord(name)) {
      const named = namePattern(name, "");
      const all = await tx.query<{ id: string; text: string }>(
        "SELECT id, text FROM memories WHERE tenant = $1 AND agent = $2",
        s,
      );
      for (const r of all.rows) if (named.test(r.text)) memoryIds.add(r.id);
    }
  }
  if (request.sessionId) {
    const found = await tx.query("SELECT 1 FROM sessions WHERE tenant = $1 AND agent = $2 AND id = $3", [
      ...s,
      request.sessionId,
    ]);
    if (found.rows.length === 0)
      throw new InvalidInputError(`No session "${request.sessionId}" to forget`, { field: "sessionId" });
    for (const id of await ids(
      "SELECT id FROM memories WHERE tenant = $1 AND agent = $2 AND session_id = $3",
      request.sessionId,
    ))
      memoryIds.add(id);
    for (const id of await ids(
      "SELECT id FROM turns WHERE tenant = $1 AND agent = $2 AND session_id = $3",
      request.sessionId,
    ))
      turnIds.add(id);
    sessionIds.add(request.sessionId);
  }
  // Memories made from erased turns carry their words, whoever they are filed about.
  for (const id of await ids(
    "SELECT id FROM memories WHERE tenant = $1 AND agent = $2 AND source_turns::jsonb ?| $3::text[]",
    [...turnIds],
  ))
    memoryIds.add(id);

  // What the erased rows said, to be found and redacted wherever else it was copied.
  const texts = async (table: string, list: string[]) =>
    (
      await tx.query<{ text: string }>(
        `SELECT text FROM ${table} WHERE tenant = $1 AND agent = $2 AND id = ANY($3::text[])`,
        [...s, list],
      )
    ).rows.map((r) => r.text);
  const memories = [...memoryIds];
  const turns = [...turnIds];
  const erased = erasedTexts(await texts("memories", memories), await texts("turns", turns));

  // An operation is deleted if it touched an erased memory, or ran over a session whose erased
  // turns its inputs may quote. Its refs go with it (ON DELETE CASCADE).
  const operations = await count(
    `DELETE FROM operations o WHERE o.tenant = $1 AND o.agent = $2 AND (o.session_id = ANY($4::text[])
     OR EXISTS (SELECT 1 FROM operation_refs r WHERE r.tenant = o.tenant AND r.agent = o.agent AND r.op_id = o.id
                AND r.memory_id = ANY($3::text[])))`,
    memories,
    [...sessionIds],
  );
  const edges = await count(
    "DELETE FROM edges WHERE tenant = $1 AND agent = $2 AND (src = ANY($3::text[]) OR dst = ANY($3::text[]))",
    memories,
  );
  const embeddings =
    (await count(
      "DELETE FROM embeddings WHERE tenant = $1 AND agent = $2 AND owner_kind = 'memory' AND owner_id = ANY($3::text[])",
      memories,
    )) +
    (await count(
      "DELETE FROM embeddings WHERE tenant = $1 AND agent = $2 AND owner_kind = 'turn' AND owner_id = ANY($3::text[])",
      turns,
    ));
  const deletedMemories = await count(
    "DELETE FROM memories WHERE tenant = $1 AND agent = $2 AND id = ANY($3::text[])",
    memories,
  );
  await count(
    "DELETE FROM operation_refs WHERE tenant = $1 AND agent = $2 AND memory_id = ANY($3::text[])",
    memories,
  );
  const deletedTurns = await count(
    "DELETE FROM turns WHERE tenant = $1 AND agent = $2 AND id = ANY($3::text[])",
    turns,
  );
  const sessions = request.sessionId
    ? await count("DELETE FROM sessions WHERE tenant = $1 AND agent = $2 AND id = $3", request.sessionId)
    : 0;
  const redacted = await redactEverywhere(tx, s, erased);
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

async function redactEverywhere(
  tx: SqlQueryable,
  s: string[],
  texts: string[],
): Promise<{ operations: number; turns: number; memories: number; embeddings: number }> {
  const counts = { operations: 0, turns: 0, memories: 0, embeddings: 0 };
  if (texts.length === 0) return counts;
  const ops = await tx.query<{ id: string; inputs: string; outputs: string; rationale: string | null }>(
    "SELECT id, inputs, outputs, rationale FROM operations WHERE tenant = $1 AND agent = $2",
    s,
  );
  for (const r of ops.rows) {
    const inputs = scrub(JSON.parse(r.inputs), texts);
    const outputs = scrub(JSON.parse(r.outputs), texts);
    const rationale = scrub(r.rationale ?? null, texts);
    if (!inputs.changed && !outputs.changed && !rationale.changed) continue;
    await tx.query(
      "UPDATE operations SET inputs = $4, outputs = $5, rationale = $6 WHERE tenant = $1 AND agent = $2 AND id = $3",
      [...s, r.id, JSON.stringify(inputs.value), JSON.stringify(outputs.value), rationale.value],
    );
    counts.operations++;
  }
  const turns = await tx.query<{ id: string; text: string; meta: string }>(
    "SELECT id, text, meta FROM turns WHERE tenant = $1 AND agent = $2",
    s,
  );
  for (const r of turns.rows) {
    const text = scrub(r.text, texts);
    if (!text.changed) continue;
    const meta = { ...JSON.parse(r.meta), redacted: true };
    await tx.query("UPDATE turns SET text = $4, meta = $5 WHERE tenant = $1 AND agent = $2 AND id = $3", [
      ...s,
      r.id,
      text.value,
      JSON.stringify(meta),
    ]);
    // A redacted turn loses its vector until `reindex` makes one of the new words.
    counts.embeddings += (
      await tx.query(
        "DELETE FROM embeddings WHERE tenant = $1 AND agent = $2 AND owner_kind = 'turn' AND owner_id = $3",
        [...s, r.id],
      )
    ).rowCount;
    counts.turns++;
  }
  // A remaining memory that repeats an erased text carries the erased fact: it goes too.
  const all = await tx.query<{ id: string; text: string }>(
    "SELECT id, text FROM memories WHERE tenant = $1 AND agent = $2",
    s,
  );
  const doomed = all.rows.filter((r) => scrub(r.text, texts).changed).map((r) => r.id);
  if (doomed.length) {
    const args = [...s, doomed];
    await tx.query(
      "DELETE FROM edges WHERE tenant = $1 AND agent = $2 AND (src = ANY($3::text[]) OR dst = ANY($3::text[]))",
      args,
    );
    counts.embeddings += (
      await tx.query(
        "DELETE FROM embeddings WHERE tenant = $1 AND agent = $2 AND owner_kind = 'memory' AND owner_id = ANY($3::text[])",
        args,
      )
    ).rowCount;
    counts.memories += (
      await tx.query("DELETE FROM memories WHERE tenant = $1 AND agent = $2 AND id = ANY($3::text[])", args)
    ).rowCount;
    await tx.query(
      "DELETE FROM operation_refs WHERE tenant = $1 AND agent = $2 AND memory_id = ANY($3::text[])",
      args,
    );
  }
  return counts;
}
