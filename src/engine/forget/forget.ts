/**
 * Forget: the only erasing path. It deletes for real and records that it happened, without
 * content, and it reaches what is not stored yet too: those holding transcripts not stored yet
 * (uploads running or waiting, a running ingest) hear of it first and drop their copies.
 */

import type { z } from "zod";
import { NotFoundError } from "../../core/errors.js";
import type { Operation, Scope } from "../../core/types.js";
import type { ForgetReport } from "../../store/memory-store.js";
import { sameId } from "../../store/pending-forget.js";
import type { forgetInputSchema } from "../api.js";
import type { Engine } from "../engine.js";
import { newOperation } from "../operations.js";
import { type ForgetNotice, forgetListenersOf } from "./forget-listeners.js";

/**
 * Erases what the (validated) input names in one agent's scope.
 * @throws {NotFoundError} a memory id the agent does not have (a session or person is refused by
 *   the store when it finds it nowhere)
 */
export async function forgetInScope(
  engine: Engine,
  scope: Scope,
  input: z.output<typeof forgetInputSchema>,
): Promise<ForgetReport> {
  const { parts } = engine;
  // A name from another tenant, or a typo, is not found: never a silent "forgot nothing".
  if (input.memoryIds) {
    const found = new Set(
      (await parts.store.listMemories(scope, { ids: input.memoryIds, status: "any" })).map((m) => m.id),
    );
    const missing = input.memoryIds.find((id) => !found.has(id));
    if (missing !== undefined)
      throw new NotFoundError(`No memory "${missing}" for agent "${input.agent}"`, { field: "memoryIds" });
  }
  // Those holding transcripts not stored yet hear of the forget before anything is erased, so a
  // session they store from now on lacks what goes; what they hold may be named (the store
  // refuses a session or a person it finds nowhere).
  const listeners = forgetListenersOf(engine).of(scope.tenant);
  const notice: ForgetNotice = {
    tenant: scope.tenant,
    agent: scope.agent,
    ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
    ...(input.about === undefined ? {} : { about: input.about }),
  };
  const pending = { people: [] as string[], sessions: [] as string[] };
  for (const l of listeners) {
    const held = l.pending?.(scope.agent);
    pending.people.push(...(held?.people ?? []));
    pending.sessions.push(...(held?.sessions ?? []));
  }
  // Their name may be looked for in the agent's words only when the person is one it knows.
  if (input.about !== undefined) {
    const about = input.about;
    const stored = await parts.store.listSessions(scope);
    const people = [
      ...stored.flatMap((x) => x.partners),
      ...stored.flatMap((x) => (Array.isArray(x.meta.agents) ? x.meta.agents.map(String) : [])),
      ...pending.people,
    ];
    notice.known = people.some((p) => p !== scope.agent && sameId(p, about));
  }
  if (notice.sessionId !== undefined || notice.about !== undefined)
    for (const l of listeners) l.starting?.(notice);
  // The log says that a forget happened, never what or whom it erased (a hash of a name is
  // reversed by a list of names): only which kind of request it was, and counts.
  const record = (counts: ForgetReport): Operation =>
    newOperation(scope, parts.strategy.name, "none", null, new Date().toISOString(), {
      type: "FORGET",
      inputs: {
        about: input.about !== undefined,
        memories: input.memoryIds?.length ?? 0,
        session: input.sessionId ?? null,
      },
      outputs: counts,
    });
  let op: Operation | undefined;
  const report = await parts.store.forget(scope, {
    ...input,
    pending,
    // Written in the erase's transaction: a forget is never done without its record, nor recorded undone.
    record: (counts) => {
      op = record(counts);
      return op;
    },
  });
  // A store written for the port before the record moved into the erase writes none: then it is
  // written after, as it was.
  if (!op) {
    op = record(report);
    await parts.store.write(scope, { operations: [op] });
  }
  if (notice.sessionId !== undefined || notice.about !== undefined)
    for (const l of listeners) await l.erased?.(notice);
  parts.events.emit("operation", op);
  return report;
}
