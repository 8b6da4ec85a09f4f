/**
 * The one-call write: an exchange given whole is stored as one session of the agent with one
 * partner and (by default) closed for consolidation. Every message is checked before anything is
 * stored, so a bad one stores nothing. With an idempotency key the session's id comes from the
 * key, and the store (not this process) remembers it: a retry, after a restart or on another
 * replica, finds the session and answers as the first call did.
 */
import { createHash } from "node:crypto";
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Scope, Session, Turn } from "../../core/types.js";
import type { Embedder } from "../../models/embedder.js";
import { embedTurns } from "../../retrieval/turn-embedding-text.js";
import type { ForgetReport, MemoryStore, TurnFilter } from "../../store/memory-store.js";
import type { Strategy } from "../../strategies/strategy.js";
import type { ForgetInput, SessionInput } from "../api.js";
import { conversationTime, parseInput } from "../api.js";
import type { JobInfo } from "../events.js";
import type { SessionHandle } from "../session/session-handle.js";
import { sessionRecord } from "../session/start-session.js";
import { checkTurnList, type ListedTurn } from "./check-turns.js";
import { type AddMessagesInput, addMessagesSchema } from "./message-schemas.js";

/** The session meta key holding a digest of the request that made the session (idempotent retries). */
export const REQUEST_DIGEST_KEY = "memlane.request";

/** What a one-call write stored. */
export interface AddMessagesResult {
  /** The session, as stored once the call ended (closed, consolidated or, with close: false, open). */
  session: Session;
  /** Its turns, one per message, in order. */
  turns: Turn[];
  /** The consolidation job queued for the session, when this process knows it; null otherwise. */
  job: JobInfo | null;
  /** True when this answer is a retry's: the first call with the key stored everything. */
  replayed: boolean;
}

type Parsed = ReturnType<typeof addMessagesSchema.parse>;

/** What the one-call write uses of the facade (a Memlane: named here so the two do not import each other). */
export interface MessagesFacade {
  readonly strategy: Strategy;
  readonly embedder: Embedder;
  readonly store: MemoryStore;
  scope(agent: string): Scope;
  session(options: SessionInput): Promise<SessionHandle>;
  resume(agent: string, sessionId: string): Promise<SessionHandle>;
  getSession(agent: string, sessionId: string): Promise<Session | null>;
  turns(agent: string, filter?: TurnFilter): Promise<Turn[]>;
  closeSession(
    agent: string,
    sessionId: string,
  ): Promise<{ job: JobInfo | null; done: Promise<JobInfo | null> }>;
  forget(options: ForgetInput): Promise<ForgetReport>;
  jobs(): JobInfo[];
}

/**
 * Stores the messages; see `Memlane.add`.
 * @throws {InvalidInputError} a bad message or field; nothing stored
 * @throws {NotFoundError} `sessionId` is not an open session of the agent
 * @throws {ConflictError} the idempotency key was used for another request, or its first call is
 *   still storing
 */
export async function addMessages(
  mem: MessagesFacade,
  input: AddMessagesInput,
  maxTurnChars: number,
): Promise<AddMessagesResult> {
  const parsed = parseInput(addMessagesSchema, input, "add");
  const { agent, partner } = parsed;
  const scope = mem.scope(agent);
  refuseCombinations(parsed);
  if (partner === agent)
    throw new InvalidInputError("The agent cannot be its own partner", { field: "partner" });
  const turns: (ListedTurn & { meta?: Record<string, unknown> })[] = parsed.messages.map((m) => ({
    speaker: m.speaker ?? (m.role === "assistant" ? agent : partner),
    text: (m.content ?? m.text)!,
    ...(m.at === undefined ? {} : { at: m.at }),
    ...(m.meta === undefined ? {} : { meta: m.meta }),
  }));

  const existing = parsed.sessionId ? await mem.resume(agent, parsed.sessionId) : null;
  if (existing && !existing.session.partners.includes(partner))
    throw new InvalidInputError(`"${partner}" is not a partner of session "${existing.id}"`, {
      field: "partner",
    });
  const last = existing ? (await existing.turns()).at(-1) : undefined;
  const dated = turns.findIndex((t) => t.at !== undefined);
  const sessionAt = existing
    ? existing.session.at
    : parsed.at !== undefined
      ? conversationTime(parsed.at, "at")
      : dated >= 0
        ? conversationTime(turns[dated]!.at!, `messages.${dated}.at`)
        : new Date().toISOString();
  const times = checkTurnList(turns, {
    speakers: [agent, partner],
    floor: last?.at ?? sessionAt,
    maxTurnChars,
    field: "messages",
  });

  const digest = requestDigest(parsed);
  const keyed = parsed.idempotencyKey === undefined ? undefined : keyedSessionId(parsed.idempotencyKey);
  if (keyed) {
    const first = await mem.getSession(agent, keyed);
    if (first) return replay(mem, parsed, first, digest);
  }
  const id = keyed ?? parsed.id;
  const meta = { ...parsed.meta, ...(keyed ? { [REQUEST_DIGEST_KEY]: digest } : {}) };

  // A new session whose strategy has no per-turn work lands whole, in one transaction.
  if (parsed.infer === false || (!existing && !mem.strategy.onTurn)) {
    const given = parsed.infer === false;
    const whole = await storeWhole(
      mem,
      scope,
      { partner, id, meta, at: sessionAt, status: given ? "consolidated" : "open" },
      turns,
      times,
      keyed,
      digest,
      parsed,
    );
    if (whole.replayed || given || parsed.close === false) return whole;
    try {
      const closed = await mem.closeSession(agent, whole.session.id);
      // The outcome is the job's; a failed consolidation is recorded for retry, not thrown here.
      closed.done.catch(() => {});
      const session = (await mem.getSession(agent, whole.session.id)) ?? whole.session;
      return { ...whole, session, job: closed.job };
    } catch (error) {
      // The queue refused (BUSY) or failed: the call stores nothing, and a retry starts afresh.
      await mem.forget({ agent, sessionId: whole.session.id }).catch(() => undefined);
      throw error;
    }
  }

  let handle = existing;
  if (!handle) {
    try {
      handle = await mem.session({ agent, partner, at: sessionAt, meta, ...(id ? { id } : {}) });
    } catch (error) {
      // Two calls with one key at once: the second finds the first's session.
      if (keyed && error instanceof ConflictError) {
        const first = await mem.getSession(agent, keyed);
        if (first) return replay(mem, parsed, first, digest);
      }
      throw error;
    }
  }
  const stored: Turn[] = [];
  let job: JobInfo | null = null;
  try {
    for (const t of turns) stored.push(await handle.turn(t.speaker, t.text, turnOptions(t)));
    if (parsed.close !== false) {
      const closed = await handle.close();
      // The outcome is the job's; a failed consolidation is recorded for retry, not thrown here.
      closed.done.catch(() => {});
      job = closed.job;
    }
  } catch (error) {
    // Checked above, a failure here is the store's or the queue's: a session of its own is
    // erased, so the call stored nothing and a retry starts afresh.
    if (!existing) await mem.forget({ agent, sessionId: handle.id }).catch(() => undefined);
    throw error;
  }
  return {
    session: (await mem.getSession(agent, handle.id)) ?? handle.session,
    turns: stored,
    job,
    replayed: false,
  };
}

function refuseCombinations(parsed: Parsed): void {
  const refuse = (field: string, message: string) => {
    throw new InvalidInputError(message, { field });
  };
  if (parsed.sessionId !== undefined) {
    if (parsed.id !== undefined) refuse("id", "give id (a new session) or sessionId (an open one), not both");
    if (parsed.idempotencyKey !== undefined)
      refuse(
        "idempotencyKey",
        "an idempotency key names a new session of its own; it cannot add to sessionId",
      );
    if (parsed.at !== undefined)
      refuse("at", "at is a new session's time; sessionId names one that has its own");
    if (parsed.meta !== undefined)
      refuse("meta", "meta is a new session's; sessionId names one that has its own");
  }
  if (parsed.idempotencyKey !== undefined && parsed.id !== undefined)
    refuse("id", "with an idempotency key the session's id comes from the key");
  if (parsed.infer === false) {
    if (parsed.sessionId !== undefined)
      refuse("sessionId", "infer: false stores the messages as a session of their own");
    if (parsed.close === false)
      refuse("close", "infer: false has nothing to consolidate: its session is never left open");
  }
}

/**
 * A new session and its turns written in one transaction: open, to be closed next, or (infer:
 * false) marked consolidated at once: no per-turn work, no consolidation, no memory. Such turns
 * are still recalled as turns (`units: "turns"`), listed, exported and forgotten like any others.
 */
async function storeWhole(
  mem: MessagesFacade,
  scope: Scope,
  s: {
    partner: string;
    id?: string;
    meta: Record<string, unknown>;
    at: string;
    status: "open" | "consolidated";
  },
  turns: (ListedTurn & { meta?: Record<string, unknown> })[],
  times: (string | undefined)[],
  keyed: string | undefined,
  digest: string,
  parsed: Parsed,
): Promise<AddMessagesResult> {
  const session: Session = {
    ...sessionRecord(
      scope,
      { agent: scope.agent, partner: s.partner, meta: s.meta, ...(s.id ? { id: s.id } : {}) },
      () => mem.strategy,
      () => s.at,
    ),
    status: s.status,
  };
  let at = s.at;
  const rows: Turn[] = turns.map((t, index) => {
    at = times[index] ?? at;
    return {
      id: `${session.id}:${index + 1}`,
      tenant: scope.tenant,
      agent: scope.agent,
      sessionId: session.id,
      index,
      speaker: t.speaker,
      text: t.text,
      at,
      meta: t.meta ?? {},
    };
  });
  const embeddings = await embedTurns(mem.embedder, rows);
  try {
    await mem.store.write(scope, { sessions: [session], turns: rows, embeddings });
  } catch (error) {
    if (keyed && error instanceof ConflictError) {
      const first = await mem.getSession(scope.agent, keyed);
      if (first) return replay(mem, parsed, first, digest);
    }
    throw error;
  }
  return { session, turns: rows, job: null, replayed: false };
}

/** A retry's answer: the first call's session and turns, its close finished if it was cut short. */
async function replay(
  mem: MessagesFacade,
  parsed: Parsed,
  first: Session,
  digest: string,
): Promise<AddMessagesResult> {
  if (first.meta[REQUEST_DIGEST_KEY] !== digest)
    throw new ConflictError(
      "This idempotency key was used for another request; use a new key for a new write",
      { field: "idempotencyKey", sessionId: first.id },
    );
  const { agent } = parsed;
  const turns = await mem.turns(agent, { sessionId: first.id });
  let session = first;
  let job: JobInfo | null = null;
  if (turns.length < parsed.messages.length)
    throw new ConflictError(
      first.status === "open"
        ? `The first call with this idempotency key is still storing its messages (${turns.length} of ${parsed.messages.length}); try again shortly. If it was cut short, forget session "${first.id}" and send the call again`
        : `The first call with this idempotency key was cut short after ${turns.length} of ${parsed.messages.length} messages; forget session "${first.id}" to send it again`,
      { field: "idempotencyKey", sessionId: first.id, stored: turns.length },
    );
  if (first.status === "open" && parsed.close !== false) {
    // The first call stored every turn but has not closed (yet, or ever): the retry closes. If
    // the first closes meanwhile, that close stands.
    try {
      const closed = await mem.closeSession(agent, first.id);
      closed.done.catch(() => {});
      job = closed.job;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
    session = (await mem.getSession(agent, first.id)) ?? first;
  }
  job ??= mem.jobs().findLast((j) => j.agent === agent && j.sessionId === first.id) ?? null;
  return { session, turns, job, replayed: true };
}

/** The session id an idempotency key stands for: the same on every replica and after a restart. */
function keyedSessionId(key: string): string {
  return `m-${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
}

/** What a retry must repeat to be the same request. */
function requestDigest(parsed: Parsed): string {
  const { idempotencyKey: _, ...request } = parsed;
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}

function turnOptions(t: { at?: string; meta?: Record<string, unknown> }) {
  return { ...(t.at === undefined ? {} : { at: t.at }), ...(t.meta === undefined ? {} : { meta: t.meta }) };
}
