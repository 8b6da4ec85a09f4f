/**
 * Correction by the caller, with no inference: `update` supersedes an active memory with the
 * caller's text, `restore` makes a past version current again and retires what replaced it, and
 * `add` stores one fact as given. Each lands through the write path the strategies' work takes
 * (consolidation/apply-staged.ts: the time guard, the audience stamp, the vectors, one
 * transaction, the operation announced), and each is an operation made by the caller
 * (`model: "caller"`), so history tells a correction from what the engine inferred.
 */
import { ConflictError, InvalidInputError, NotFoundError } from "../../core/errors.js";
import { newId } from "../../core/ids.js";
import type { Memory, Operation, Scope } from "../../core/types.js";
import { applyStaged } from "../consolidation/apply-staged.js";
import { newOperation } from "../operations.js";
import type { EngineParts } from "../parts.js";
import { statedPrivacy } from "../privacy/stated-privacy.js";
import { currentVersions } from "./versions.js";

/** The `model` of a correction's operation: a person or a program through the API, not a model. */
export const CALLER = "caller";

/** What `update` did: the new current version, the one it superseded, and the operation. */
export interface UpdateResult {
  memory: Memory;
  superseded: Memory;
  operation: Operation;
}

/** What `restore` did: the memory current again, what it retired, and the operation. */
export interface RestoreResult {
  memory: Memory;
  retired: Memory[];
  operation: Operation;
}

/** What `add` stored, and the operation. */
export interface AddResult {
  memory: Memory;
  operation: Operation;
}

/** A fact as the facade parsed it. */
export interface StatedFact {
  about: string;
  text: string;
  /** Conversation time, parsed. */
  at: string;
  meta?: Record<string, unknown>;
}

type Parts = Pick<EngineParts, "store" | "embedder" | "events" | "strategy">;

/** The later of two ISO times: a version never stops being current before it began. */
const later = (a: string, b: string) => (a > b ? a : b);

const quoted = (text: string) => `“${text.length > 120 ? `${text.slice(0, 119)}…` : text}”`;

/**
 * Supersedes active memory `id` with a new version holding `text`.
 * @throws {NotFoundError} no such memory
 * @throws {ConflictError} the memory is not active (`details.current` names the versions that are)
 * @throws {InvalidInputError} the text is the memory's own
 */
export async function updateMemory(
  parts: Parts,
  scope: Scope,
  id: string,
  text: string,
  meta?: Record<string, unknown>,
): Promise<UpdateResult> {
  const old = await parts.store.getMemory(scope, id);
  if (!old) throw new NotFoundError(`No memory "${id}" for agent "${scope.agent}"`, { field: "memoryId" });
  if (old.status !== "active") {
    const current = await currentVersions(parts.store, scope, old);
    const now =
      current.length === 0
        ? "no version of it is current (restore it to make it current again)"
        : `the current version is ${current.map((m) => `"${m.id}" (${quoted(m.text)})`).join(", ")}: update that one, or restore this one`;
    throw new ConflictError(`Memory "${id}" is ${old.status}, not active; ${now}`, {
      field: "memoryId",
      reason: "not-active",
      status: old.status,
      current: current.map((m) => m.id),
    });
  }
  if (text === old.text)
    throw new InvalidInputError(`Memory "${id}" already says that; nothing to update`, {
      field: "text",
      reason: "unchanged",
    });
  const now = new Date().toISOString();
  const stamp = statedPrivacy(text, old.about, scope.agent, old);
  // The corrected version holds from when the first was learned, on the same evidence: it is
  // what should have been remembered then, not news.
  const memory: Memory = {
    id: newId("mem"),
    tenant: scope.tenant,
    agent: scope.agent,
    about: old.about,
    text: stamp.text,
    kind: old.kind,
    strategy: old.strategy,
    observedAt: old.observedAt,
    recordedAt: now,
    status: "active",
    invalidAt: null,
    sessionId: old.sessionId,
    sourceTurns: old.sourceTurns,
    attributes: { ...stamp.attributes, correctionOf: old.id, ...(meta ? { meta } : {}) },
  };
  const operation = newOperation(scope, old.strategy, CALLER, null, now, {
    type: "UPDATE",
    memoryIds: [old.id, memory.id],
    inputs: { memory: old.id, text: old.text, correction: text },
    outputs: { memory: memory.id, text: memory.text, superseded: old.id },
    rationale: `updated by the caller: ${quoted(old.text)} → ${quoted(memory.text)}`,
  });
  await applyStaged(parts, [
    {
      scope,
      staged: [
        {
          memories: [memory],
          supersede: [
            {
              oldId: old.id,
              byId: memory.id,
              at: later(now, old.observedAt),
              edge: "Supersedes",
              reason: "UPDATE",
            },
          ],
          operations: [operation],
        },
      ],
    },
  ]);
  const rows = new Map(
    (await parts.store.listMemories(scope, { ids: [memory.id, old.id], status: "any" })).map((r) => [
      r.id,
      r,
    ]),
  );
  return { memory: rows.get(memory.id) ?? memory, superseded: rows.get(old.id) ?? old, operation };
}

/**
 * Makes superseded memory `id` current again, retiring the versions that hold in its place.
 * @throws {NotFoundError} no such memory (never stored, or forgotten and so erased)
 * @throws {ConflictError} the memory is active already, or marked forgotten
 */
export async function restoreMemory(parts: Parts, scope: Scope, id: string): Promise<RestoreResult> {
  const m = await parts.store.getMemory(scope, id);
  if (!m)
    throw new NotFoundError(`No memory "${id}" for agent "${scope.agent}" (never stored, or forgotten)`, {
      field: "memoryId",
    });
  if (m.status !== "superseded")
    throw new ConflictError(
      m.status === "active"
        ? `Memory "${id}" is current already; only a past version can be restored`
        : `Memory "${id}" was forgotten; it cannot be restored`,
      {
        field: "memoryId",
        reason: m.status === "active" ? "already-current" : "forgotten",
        status: m.status,
      },
    );
  const retired = await currentVersions(parts.store, scope, m);
  const now = new Date().toISOString();
  const operation = newOperation(scope, m.strategy, CALLER, null, now, {
    type: "RESTORE",
    memoryIds: [m.id, ...retired.map((r) => r.id)],
    inputs: { memory: m.id, text: m.text },
    outputs: { restored: m.id, retired: retired.map((r) => ({ id: r.id, text: r.text })) },
    rationale: `restored by the caller: ${quoted(m.text)} is current again${
      retired.length ? `, retiring ${retired.map((r) => quoted(r.text)).join(", ")}` : ""
    }`,
  });
  await applyStaged(parts, [
    {
      scope,
      staged: [
        {
          reinstate: [m.id],
          // No edge back to the restored memory: the version graph stays acyclic, and the
          // operation says what replaced what (versions.ts reads it).
          supersede: retired.map((r) => ({
            oldId: r.id,
            byId: null,
            at: later(now, r.observedAt),
            reason: "RESTORE",
          })),
          operations: [operation],
        },
      ],
    },
  ]);
  const ids = [m.id, ...retired.map((r) => r.id)];
  const rows = new Map((await parts.store.listMemories(scope, { ids, status: "any" })).map((r) => [r.id, r]));
  return {
    memory: rows.get(m.id) ?? m,
    retired: retired.map((r) => rows.get(r.id) ?? r),
    operation,
  };
}

/**
 * Stores one fact as given: active, dated `at`, retiring nothing (a fact older than a memory it
 * contradicts is stored all the same: deciding between them is inference, which this is not).
 */
export async function addMemory(parts: Parts, scope: Scope, fact: StatedFact): Promise<AddResult> {
  const now = new Date().toISOString();
  const stamp = statedPrivacy(fact.text, fact.about, scope.agent);
  const strategy = parts.strategy.name;
  const memory: Memory = {
    id: newId("mem"),
    tenant: scope.tenant,
    agent: scope.agent,
    about: fact.about,
    text: stamp.text,
    kind: "fact",
    strategy,
    observedAt: fact.at,
    recordedAt: now,
    status: "active",
    invalidAt: null,
    sessionId: null,
    sourceTurns: [],
    attributes: { ...stamp.attributes, ...(fact.meta ? { meta: fact.meta } : {}) },
  };
  const operation = newOperation(scope, strategy, CALLER, null, fact.at, {
    type: "ADD",
    memoryIds: [memory.id],
    inputs: { about: fact.about, text: fact.text, at: fact.at },
    outputs: { memory: memory.id, text: memory.text },
    rationale: `added by the caller, stored as given: ${quoted(memory.text)}`,
  });
  await applyStaged(parts, [{ scope, staged: [{ memories: [memory], operations: [operation] }] }]);
  return { memory: (await parts.store.getMemory(scope, memory.id)) ?? memory, operation };
}
