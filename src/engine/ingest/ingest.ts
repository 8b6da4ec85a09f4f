/**
 * Ingest: a validated transcript is stored and consolidated one session at a time. Each session
 * and its turns land in one transaction, and its consolidation in another, so a run killed at
 * any point leaves a consistent database; running the same ingest again skips what is done and
 * finishes what was interrupted. While one session consolidates, the next one's turns are being
 * embedded (the encoder works in background threads), and their vectors land with its turns.
 */

import { ConflictError } from "../../core/errors.js";
import { LEFT_BY_INGEST } from "../../core/session-meta.js";
import type { Scope, Session, Turn } from "../../core/types.js";
import { breathe } from "../../core/yield-to-loop.js";
import { embedTurns } from "../../retrieval/turn-embedding-text.js";
import type { EmbeddingRecord } from "../../store/memory-store.js";
import { forgetInSession } from "../../store/pending-forget.js";
import { type ConsolidationOutcome, consolidate } from "../consolidation/consolidator.js";
import type { JobInfo } from "../events.js";
import type { ForgetNotice } from "../forget/forget-listeners.js";
import type { EngineParts } from "../parts.js";
import type { TurnPath } from "../session/turn-path.js";
import type { Transcript, TranscriptSession, TranscriptTurn } from "./formats/transcript.js";

/** Sessions whose turns are being embedded while the current one consolidates. */
const LOOKAHEAD = 4;

export interface IngestProgress {
  agent: string;
  done: number;
  total: number;
  sessionId: string;
  /** What happened to this session. */
  outcome: "ingested" | "skipped" | "resumed" | "failed";
}

export interface IngestOptions {
  onProgress?: (progress: IngestProgress) => void;
  /**
   * Stop after this many sessions in a row failed because the model could not be reached or
   * timed out (default 3): the rest are left for a later run instead of failing one by one.
   */
  stopAfterUnreachable?: number;
}

export interface IngestReport {
  agent: string;
  sessions: number;
  ingested: number;
  skipped: number;
  resumed: number;
  failed: number;
  /** Sessions not tried because the run stopped early (see `stopped`). */
  notAttempted: number;
  /** Why the run stopped before the end, if it did. */
  stopped?: string;
  /** Each failed session, with its error's code and text. */
  failures: { sessionId: string; code: string; error: string }[];
  turns: number;
  elapsedMs: number;
}

/** What is stored already of a transcript's sessions, checked before anything is written. */
export interface StoredState {
  existing: Map<string, Session>;
  storedTurns: Map<string, number>;
  /** The place after the last stored turn of a session, where its next turn goes (a forget leaves gaps). */
  nextIndex?: Map<string, number>;
}

const UNREACHABLE = new Set(["MODEL_UNAVAILABLE", "MODEL_TIMEOUT"]);

interface IngestPorts {
  parts: EngineParts;
  /** The per-turn path, for strategies that write memory at every turn. */
  turns: TurnPath;
  scope(agent: string): Scope;
  strategy: string;
  /**
   * The forgets of this tenant heard since the ingest began, in order (a list the caller keeps
   * appending to): a session is stored as they leave it, or skipped when nothing of it is left.
   */
  forgets?: readonly ForgetNotice[];
}

/**
 * Compares a transcript with what is stored: a stored session with other turns is a conflict
 * (nothing of the transcript may then be written). Run it for every transcript of a file before
 * ingesting any, so a conflict in the last one leaves the store untouched.
 */
export async function checkStored(ports: IngestPorts, transcript: Transcript): Promise<StoredState> {
  const { store } = ports.parts;
  const scope = ports.scope(transcript.agent);
  const existing = new Map<string, Session>();
  const storedTurns = new Map<string, number>();
  const nextIndex = new Map<string, number>();
  const sessions: TranscriptSession[] = [];
  const named = new Set(transcript.sessions.map((s) => s.id));
  // A queue, so that a continuation goes through the same checks (it may have been stopped and
  // finished early too: then it is continued in turn).
  const queue = [...transcript.sessions];
  while (queue.length) {
    const s = queue.shift()!;
    sessions.push(s);
    const stored = await store.getSession(scope, s.id);
    if (!stored) continue;
    const turns = await store.listTurns(scope, { sessionId: s.id });
    const prefix = isPrefix(turns, s);
    // A session an ingest created and `retry` finished with only its first turns (the ingest was
    // stopped): the rest of its turns go into a continuation session right after it, so the file
    // ingests whole and nothing is lost. A chat's session with fewer turns is a conflict, as ever.
    if (
      stored.status !== "open" &&
      stored.meta[LEFT_BY_INGEST] === true &&
      turns.length < s.turns.length &&
      prefix
    ) {
      const rest = continuation(s, turns.length);
      if (named.has(rest.id))
        throw new ConflictError(
          `Session "${s.id}" needs a continuation "${rest.id}", which the file names too`,
          {
            session: rest.id,
          },
        );
      s.turns = s.turns.slice(0, turns.length);
      existing.set(s.id, stored);
      storedTurns.set(s.id, turns.length);
      queue.unshift(rest);
      continue;
    }
    const have = storedPart(stored, turns, s, transcript.agent);
    existing.set(s.id, stored);
    storedTurns.set(s.id, have);
    nextIndex.set(s.id, (turns.at(-1)?.index ?? -1) + 1);
  }
  transcript.sessions = sessions;
  return { existing, storedTurns, nextIndex };
}

/**
 * True when the stored turns are the transcript's first turns: same speakers and words, or the
 * same turn redacted by a forget since.
 */
function isPrefix(turns: Turn[], s: TranscriptSession): boolean {
  return turns.every((t, i) => {
    const listed = s.turns[i];
    return (
      listed !== undefined &&
      t.speaker === listed.speaker &&
      (t.text === listed.text || (t.meta.redacted === true && t.id === listed.id))
    );
  });
}

/**
 * How many of a transcript session's turns are stored already; a stored session holding other
 * turns is a conflict. An open session may hold only the first turns (a killed run or chat): the
 * rest are added. A finished session whose turns are the transcript's own but for some a forget
 * erased (the same turn ids, in order) is the same session: it stays as the forget left it, and
 * the turns the forget erased are not stored again (`s.turns` keeps only those stored).
 */
function storedPart(stored: Session, turns: Turn[], s: TranscriptSession, agent: string): number {
  const partial = stored.status === "open";
  if (isPrefix(turns, s) && (partial ? turns.length <= s.turns.length : turns.length === s.turns.length))
    return turns.length;
  if (!partial && turns.length < s.turns.length) {
    const byId = new Map(s.turns.map((t) => [t.id, t]));
    let last = -1;
    const kept = turns.every((t) => {
      const listed = byId.get(t.id);
      const at = listed ? s.turns.indexOf(listed) : -1;
      const ok =
        listed !== undefined &&
        at > last &&
        t.speaker === listed.speaker &&
        (t.text === listed.text || t.meta.redacted === true);
      last = at;
      return ok;
    });
    if (kept) {
      const ids = new Set(turns.map((t) => t.id));
      s.turns = s.turns.filter((t) => ids.has(t.id));
      return turns.length;
    }
  }
  throw new ConflictError(`Session "${s.id}" is already stored for agent "${agent}" with different turns`, {
    session: s.id,
  });
}

/** A session as the forgets heard so far leave it; null when nothing of it is left. */
function afterForgets(ports: IngestPorts, agent: string, s: TranscriptSession): TranscriptSession | null {
  let left: TranscriptSession | null = s;
  for (const f of ports.forgets ?? []) {
    if (f.agent !== agent) continue;
    left = forgetInSession(agent, left, f);
    if (left === null) return null;
  }
  return left;
}

/** A transcript's sessions as the forgets heard so far leave them (before anything is checked or stored). */
export function applyForgets(ports: IngestPorts, transcript: Transcript): void {
  transcript.sessions = transcript.sessions.flatMap((s) => afterForgets(ports, transcript.agent, s) ?? []);
}

/** The turns of a session after its first `from`, as the session that continues it. */
function continuation(s: TranscriptSession, from: number): TranscriptSession {
  return {
    ...s,
    id: `${s.id}~rest`,
    turns: s.turns.slice(from),
    meta: { ...s.meta, continues: s.id },
  };
}

/** What is stored of a session now: the session, how many of its turns, and where the next one goes. */
async function storedNow(
  ports: IngestPorts,
  scope: Scope,
  s: TranscriptSession,
): Promise<{ stored?: Session; have: number; next: number }> {
  const stored = await ports.parts.store.getSession(scope, s.id);
  if (!stored) return { have: 0, next: 0 };
  const turns = await ports.parts.store.listTurns(scope, { sessionId: s.id });
  const have = storedPart(stored, turns, s, scope.agent);
  return { stored, have, next: (turns.at(-1)?.index ?? -1) + 1 };
}

/** An error as a session's failed outcome. */
function failed(error: unknown): { ok: false; code: string; error: string } {
  const code = (error as { code?: unknown })?.code;
  return {
    ok: false,
    code: typeof code === "string" ? code : "UNEXPECTED",
    error: `${typeof code === "string" ? `${code}: ` : ""}${(error as Error)?.message ?? String(error)}`,
  };
}

export async function ingestTranscript(
  ports: IngestPorts,
  transcript: Transcript,
  options: IngestOptions = {},
  checked?: StoredState,
): Promise<IngestReport> {
  const started = performance.now();
  const { store, embedder } = ports.parts;
  const scope = ports.scope(transcript.agent);
  // Sessions closed live are consolidated first, so ingest never races a background job.
  await ports.parts.queue.idle();
  const report = emptyReport(transcript.agent, transcript.sessions.length);
  const perTurn = ports.parts.strategies.get(ports.strategy).onTurn !== undefined;
  const { existing, storedTurns, nextIndex } = checked ?? (await checkStored(ports, transcript));
  const stopAfter = options.stopAfterUnreachable ?? 3;
  let unreachableInARow = 0;
  // Turns of the next sessions are embedded ahead, a few sessions deep, so the encoder never waits
  // for a consolidation and never idles at the end of one session's short batch list.
  const fresh = transcript.sessions.filter((s) => !existing.has(s.id));
  const ahead = new Map<string, Promise<EmbeddingRecord[]>>();
  let embedded = 0;
  const embedAhead = (upTo: number) => {
    for (; embedded < Math.min(upTo, fresh.length); embedded++) {
      const s = fresh[embedded]!;
      const vectors = embedTurns(embedder, s.turns);
      // A failure shows when its session is reached: its consolidation then embeds (and fails) again.
      vectors.catch(() => undefined);
      ahead.set(s.id, vectors);
    }
  };
  const forgets = ports.forgets ?? [];
  let done = 0;
  const queued: { sessionId: string; outcome: "ingested" | "resumed"; done: Promise<JobInfo> }[] = [];
  for (const listed of transcript.sessions) {
    await breathe();
    if (report.stopped) {
      report.notAttempted++;
      continue;
    }
    let outcome: IngestProgress["outcome"] = "skipped";
    let result: Awaited<ReturnType<typeof feedTurns>> = { ok: true };
    let s: TranscriptSession | null = listed;
    // Stored as the forgets heard so far leave it; a forget heard before the write is reached
    // (while its vectors are made) starts the session over, so nothing forgotten is written.
    for (let heard = -1; heard !== forgets.length; ) {
      heard = forgets.length;
      s = afterForgets(ports, transcript.agent, listed);
      if (s === null) break;
      let stored = existing.get(s.id);
      let have = storedTurns.get(s.id) ?? 0;
      let next = nextIndex?.get(s.id) ?? have;
      try {
        // A forget since the check may have erased some of what was stored: it is read again.
        if (s !== listed) ({ stored, have, next } = await storedNow(ports, scope, s));
      } catch (error) {
        result = failed(error);
        outcome = "failed";
        break;
      }
      if (stored?.status === "consolidated") {
        outcome = "skipped";
        break;
      }
      if (perTurn) {
        result = await feedTurns(ports, scope, s, stored, have, stopAfter, listed);
        outcome = result.forgotten ? "skipped" : !result.ok ? "failed" : stored ? "resumed" : "ingested";
        break;
      }
      if (stored?.status === "open") {
        // Left open (a killed chat or run): the turns it lacks are added, then it is finished.
        const missing = s.turns.slice(have).map((t, i) => turnRow(scope, s!.id, next + i, t));
        const vectors = await embedTurns(embedder, missing);
        if (heard !== forgets.length) continue;
        await store.write(scope, {
          turns: missing,
          embeddings: vectors,
          sessionStatus: [{ id: s.id, status: "closed" }],
        });
      } else if (!stored) {
        const session = newSessionRow(scope, s, "closed", ports.strategy);
        const turns: Turn[] = s.turns.map((t, index) => turnRow(scope, s!.id, index, t));
        embedAhead(fresh.indexOf(listed) + LOOKAHEAD);
        const kept = new Set(turns.map((t) => t.id));
        // Made for the session as listed: the vectors of turns a forget took out go with them.
        const vectors = (await (ahead.get(listed.id) ?? Promise.resolve([])).catch(() => [])).filter((v) =>
          kept.has(v.ownerId),
        );
        if (heard !== forgets.length) continue;
        ahead.delete(listed.id);
        await store.write(scope, { sessions: [session], turns, embeddings: vectors });
      }
      // On a shared queue the job goes to the workers, and is awaited with the others at the end.
      const later = ports.parts.queue.shared ? await enqueueConsolidation(ports.parts, scope, s.id) : null;
      result = later ? { ok: true } : await consolidate(ports.parts, scope, s.id);
      // A consolidation that read turns a forget erased meanwhile is refused: it runs again over
      // what the forget left, and a session forgotten whole is skipped.
      if (!result.ok && heard !== forgets.length) {
        if (afterForgets(ports, transcript.agent, listed) === null) {
          s = null;
          break;
        }
        result = await consolidate(ports.parts, scope, s.id);
      }
      outcome = !result.ok ? "failed" : stored ? "resumed" : "ingested";
      if (later && outcome !== "failed") queued.push({ sessionId: s.id, outcome, done: later.done });
      break;
    }
    if (s === null) outcome = "skipped";
    if (!result.ok && outcome === "failed") {
      report.failures.push({ sessionId: listed.id, code: result.code, error: result.error });
      unreachableInARow = UNREACHABLE.has(result.code) ? unreachableInARow + 1 : 0;
      if (result.stopped) report.stopped = result.stopped;
      else if (stopAfter > 0 && unreachableInARow >= stopAfter)
        report.stopped = `the model was unreachable for ${unreachableInARow} sessions in a row (${result.error})`;
    } else unreachableInARow = 0;
    report[outcome === "ingested" ? "ingested" : outcome]++;
    report.turns += s?.turns.length ?? 0;
    done++;
    options.onProgress?.({
      agent: transcript.agent,
      done,
      total: transcript.sessions.length,
      sessionId: listed.id,
      outcome,
    });
  }
  // Sessions consolidated by the workers of a shared queue: a failed one counts as failed.
  for (const q of queued) {
    const result = await outcomeOf(ports.parts, scope, q.sessionId, await q.done);
    if (result.ok) continue;
    report[q.outcome]--;
    report.failed++;
    report.failures.push({ sessionId: q.sessionId, code: result.code, error: result.error });
  }
  report.elapsedMs = performance.now() - started;
  return report;
}

/** Queues a session's consolidation; resolves, once queued, with its job's end (`done`). */
async function enqueueConsolidation(
  parts: EngineParts,
  scope: Scope,
  sessionId: string,
): Promise<{ done: Promise<JobInfo> }> {
  const { done } = await parts.queue.enqueue({
    kind: "consolidate",
    tenant: scope.tenant,
    agent: scope.agent,
    sessionId,
  });
  return { done };
}

/** A finished job as a consolidation outcome; a failure carries the failed operation's code and text. */
async function outcomeOf(
  parts: EngineParts,
  scope: Scope,
  sessionId: string,
  job: JobInfo,
): Promise<ConsolidationOutcome> {
  if (job.state === "done") return { ok: true };
  const failed = (await parts.store.listOperations(scope, { sessionId, status: "failed" }))
    .filter((o) => o.type === "CONSOLIDATE")
    .at(-1);
  const error = failed?.error ?? job.error ?? "consolidation failed";
  return { ok: false, code: error.match(/^([A-Z_]+):/)?.[1] ?? "CONSOLIDATION_FAILED", error };
}

/**
 * One session fed turn by turn through the per-turn path ("wait": each turn lands with the
 * strategy's writes), from the first turn not stored yet, then consolidated. When the model could
 * not be reached for `stopAfter` turns in a row, feeding stops there: the session stays open with
 * the turns stored so far (each with its failed step, for `retry`), and a later ingest goes on
 * from the first turn it lacks — a dead model costs a few timeouts, not one per turn of the file.
 */
async function feedTurns(
  ports: IngestPorts,
  scope: Scope,
  s: TranscriptSession,
  stored: Session | undefined,
  have: number,
  stopAfter: number,
  listed: TranscriptSession = s,
): Promise<Awaited<ReturnType<typeof consolidate>> & { stopped?: string; forgotten?: boolean }> {
  let session = stored;
  if (!session) {
    // Marked so that `inspect` tells a session a killed ingest left (re-run the ingest) from one a
    // killed chat left (retry it).
    session = newSessionRow(
      scope,
      { ...s, meta: { ...s.meta, [LEFT_BY_INGEST]: true } },
      "open",
      ports.strategy,
    );
    await ports.parts.store.write(scope, { sessions: [session] });
  }
  if (session.status === "open") {
    let unreachable = 0;
    for (const t of s.turns.slice(have)) {
      await breathe();
      // A forget heard while the session is fed: a turn it took out is not added, and a session
      // it took whole ends here (the forget erased what was stored of it).
      const now = afterForgets(ports, scope.agent, listed);
      if (now === null) return { ok: true, forgotten: true };
      if (now !== s && !now.turns.some((x) => x.id === t.id)) continue;
      const [turn] = await ports.turns.add(
        [{ scope, session }],
        { speaker: t.speaker, text: t.text, at: t.at, id: t.id, meta: t.meta },
        "wait",
      );
      // Only a turn whose step asks the model counts: the agent's own turns do no model work and
      // must not reset the count (a dead model would otherwise cost a timeout per partner turn).
      if (!turn || t.speaker === scope.agent) continue;
      const failed = await failedTurnStep(ports, scope, s.id, turn.id);
      const code = (failed?.error ?? "").split(":")[0]!;
      unreachable = failed ? (UNREACHABLE.has(code) ? unreachable + 1 : 0) : 0;
      if (stopAfter > 0 && unreachable >= stopAfter)
        return {
          ok: false,
          code,
          error: failed!.error ?? "",
          stopped: `the model was unreachable for ${unreachable} turns in a row (${failed!.error})`,
        };
    }
    await ports.parts.store.write(scope, { sessionStatus: [{ id: s.id, status: "closed" }] });
  }
  const result = ports.parts.queue.shared
    ? await outcomeOf(
        ports.parts,
        scope,
        s.id,
        await (await enqueueConsolidation(ports.parts, scope, s.id)).done,
      )
    : await consolidate(ports.parts, scope, s.id);
  if (!result.ok) return result;
  // Per-turn work that failed is a failure of the session too (stored, and waiting for retry).
  const failed = (await ports.parts.store.listOperations(scope, { sessionId: s.id, status: "failed" })).find(
    (o) => o.type === "TURN",
  );
  return failed
    ? { ok: false, code: (failed.error ?? "").split(":")[0] || "UNEXPECTED", error: failed.error ?? "" }
    : result;
}

/** The failed TURN operation of one turn, if its per-turn work failed. */
async function failedTurnStep(ports: IngestPorts, scope: Scope, sessionId: string, turnId: string) {
  return (await ports.parts.store.listOperations(scope, { sessionId, status: "failed" })).find(
    (o) => o.type === "TURN" && (o.inputs as { turn?: unknown } | null)?.turn === turnId,
  );
}

function newSessionRow(
  scope: Scope,
  s: TranscriptSession,
  status: Session["status"],
  strategy: string,
): Session {
  return {
    id: s.id,
    tenant: scope.tenant,
    agent: scope.agent,
    partners: s.partners,
    at: s.at,
    status,
    strategy,
    meta: s.meta,
    recordedAt: new Date().toISOString(),
  };
}

/** A report of nothing done yet. */
export function emptyReport(agent: string, sessions: number): IngestReport {
  return {
    agent,
    sessions,
    ingested: 0,
    skipped: 0,
    resumed: 0,
    failed: 0,
    notAttempted: 0,
    failures: [],
    turns: 0,
    elapsedMs: 0,
  };
}

function turnRow(scope: Scope, sessionId: string, index: number, t: TranscriptTurn): Turn {
  return {
    id: t.id,
    tenant: scope.tenant,
    agent: scope.agent,
    sessionId,
    index,
    speaker: t.speaker,
    text: t.text,
    at: t.at,
    meta: t.meta,
  };
}
