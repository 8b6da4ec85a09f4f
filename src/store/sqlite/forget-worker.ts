/**
 * A SQLite forget on a worker thread. better-sqlite3 runs every statement to its end on the thread
 * that calls it, and a forget of a large scope is seconds of deletes and redaction passes: run by
 * the serving thread it held every request of every tenant for its whole length. Here the forget
 * (the version bump, the forget program, the request's record, the commit, and the WAL checkpoint
 * that takes the erased text off the disk) runs on a thread of its own, with its own connection
 * to the same file. WAL lets the serving thread read meanwhile; it sees the file as it was until
 * the commit, then as the forget left it. Its writes wait for the forget without blocking
 * (write-gate.ts), since a write that met the worker's lock would sleep in the busy handler.
 *
 * The record is made by the caller's callback, which cannot cross threads: the worker posts its
 * report, awaits the operation the serving thread builds from it, and writes it in the same
 * transaction, or rolls everything back when the callback failed. A thread that dies leaves
 * nothing half done: its connection closes with it, and SQLite rolls back an open transaction.
 *
 * The thread runs inline CommonJS that imports this very module (as the bundled encoder's and
 * PGlite's workers import their packages by absolute path), so it runs the same from dist/ and
 * from source. From source, Node 20 does not give a worker the parent's `--import tsx` hooks: the
 * thread registers tsx itself when the module cannot be loaded without it.
 */

import { type MessagePort, Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import {
  ConflictError,
  type ErrorCode,
  InvalidInputError,
  MemlaneError,
  NotFoundError,
  StoreUnavailableError,
} from "../../core/errors.js";
import type { Operation, Scope } from "../../core/types.js";
import type { ForgetReport, ForgetRequest } from "../memory-store.js";
import { forgetProgram } from "../sql/forget.js";
import { runSync } from "../sql/program.js";
import { bumpVersion } from "../sql/scope-changes.js";
import { writeBatch } from "../sql/write-batch.js";
import { sqliteDialect, sqliteRunner } from "./dialect.js";
import { openDatabase, storeError } from "./open-database.js";
import type { OpenOptions } from "./open-options.js";

/** What a forget on another thread needs; everything here crosses the thread by structured clone. */
interface ThreadInput {
  /** This module's URL, for the thread to import. */
  module: string;
  /** tsx's registration API, when this module is TypeScript source; null from dist/. */
  tsx: string | null;
  path: string;
  options: OpenOptions;
  scope: Scope;
  /** The request without its record callback, which stays on the calling thread. */
  request: Omit<ForgetRequest, "record">;
  /** Whether the caller makes a record to write with the erase. */
  record: boolean;
  simulateCrash: boolean;
}

/** A message from the forget's thread. */
type FromThread =
  | { kind: "report"; report: ForgetReport }
  | { kind: "committed"; report: ForgetReport }
  | { kind: "done"; report: ForgetReport }
  | { kind: "aborted" }
  | { kind: "failed"; error: WireError };

/** The calling thread's answer to a report: the record to write, or the word to roll back. */
type ToThread = { kind: "record"; operation: Operation } | { kind: "abort" };

/**
 * An error as it crosses the thread. A MemlaneError keeps its code, message and details, so it is
 * thrown again as the same class; a driver's error keeps its SQLite code for the usual mapping.
 */
interface WireError {
  message: string;
  name?: string;
  code?: string;
  memlane?: boolean;
  details?: Record<string, unknown>;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  let forget;
  try {
    try {
      forget = await import(workerData.module);
    } catch (error) {
      if (!workerData.tsx || !error || error.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
      (await import(workerData.tsx)).register();
      // A failed import stays failed under its URL: the query makes it a new one.
      forget = await import(workerData.module + "?tsx");
    }
  } catch (error) {
    parentPort.postMessage({ kind: "failed", error: { memlane: true, code: "STORE_UNAVAILABLE",
      message: "The forget's thread could not load its code: " + String((error && error.message) || error) } });
    return;
  }
  await forget.forgetOnThisThread(workerData, parentPort);
})();
`;

/** tsx's registration API when this module runs from TypeScript source (the tests, the lab); else null. */
function tsxApi(): string | null {
  if (!import.meta.url.endsWith(".ts")) return null;
  try {
    return import.meta.resolve("tsx/esm/api");
  } catch {
    return null;
  }
}

/** Where and what a forget on another thread erases. */
export interface ForgetInWorkerOptions {
  /** The SQLite file (never ":memory:": an in-memory database belongs to its one connection). */
  path: string;
  options?: OpenOptions;
  scope: Scope;
  request: ForgetRequest;
  /** For tests: the thread ends abruptly after the erase, before its commit. */
  simulateCrash?: boolean;
}

/**
 * Runs one forget on a worker thread with its own connection to the file, in one transaction with
 * the request's record, then checkpoints the WAL. Resolves when the erase is committed and
 * checkpointed; nothing of it is visible to other connections before the commit.
 * @throws {NotFoundError} no such person or session (nothing erased)
 * @throws {InvalidInputError} an empty request (nothing erased)
 * @throws {StoreUnavailableError} the file is locked or unwritable, or the thread died before the
 *   commit (nothing erased)
 * Whatever the record callback throws is thrown as it is, and nothing is erased.
 */
export function forgetInWorker(o: ForgetInWorkerOptions): Promise<ForgetReport> {
  const { record, ...rest } = o.request;
  const request: Omit<ForgetRequest, "record"> = {};
  if (rest.about !== undefined) request.about = rest.about;
  if (rest.memoryIds !== undefined) request.memoryIds = rest.memoryIds;
  if (rest.sessionId !== undefined) request.sessionId = rest.sessionId;
  if (rest.pending !== undefined) request.pending = rest.pending;
  const input: ThreadInput = {
    module: import.meta.url,
    tsx: tsxApi(),
    path: o.path,
    options: o.options ?? {},
    scope: { tenant: o.scope.tenant, agent: o.scope.agent },
    request,
    record: record !== undefined,
    simulateCrash: o.simulateCrash ?? false,
  };
  return new Promise<ForgetReport>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input });
    let settled = false;
    let recordError: unknown;
    let committed: ForgetReport | undefined;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      finish();
    };
    worker.on("message", (m: FromThread) => {
      switch (m.kind) {
        case "report":
          try {
            const answer: ToThread = { kind: "record", operation: record!(m.report) };
            worker.postMessage(answer);
          } catch (error) {
            // The callback failed, or made what cannot cross the thread: nothing may land.
            recordError = error;
            worker.postMessage({ kind: "abort" } satisfies ToThread);
          }
          return;
        case "committed":
          committed = m.report;
          return;
        case "done":
          return settle(() => resolve(m.report));
        case "aborted":
          return settle(() => reject(recordError));
        case "failed":
          // A failure after the commit (the checkpoint) leaves the forget done: it is reported as
          // done, and the next checkpoint clears the WAL.
          return settle(() => (committed ? resolve(committed) : reject(fromWire(m.error, o.path))));
      }
    });
    const died = (cause: unknown) =>
      settle(() =>
        committed
          ? resolve(committed)
          : reject(
              new StoreUnavailableError(
                `The forget's thread for ${o.path} stopped before it finished; nothing was erased`,
                { path: o.path },
                cause,
              ),
            ),
      );
    worker.on("error", died);
    worker.on("exit", (code) => died(new Error(`its thread ended with code ${code}`)));
  });
}

/** The next message on a port. */
function next(port: MessagePort): Promise<ToThread> {
  return new Promise((resolve) => port.once("message", resolve));
}

/**
 * The forget's thread: called by the inline worker with its input and port. Exported for that
 * worker only.
 */
export async function forgetOnThisThread(input: ThreadInput, port: MessagePort): Promise<void> {
  let db: Database.Database | undefined;
  try {
    db = openDatabase(input.path, input.options);
    const run = sqliteRunner(db);
    // IMMEDIATE: the write lock is taken before the first read, so what the program reads is what
    // it erases; another process's writer is waited for here, in the busy handler of this thread.
    db.exec("BEGIN IMMEDIATE");
    // The version moves first: the change log's triggers stamp rows with it.
    runSync(bumpVersion(input.scope), run);
    const report = runSync(forgetProgram(sqliteDialect, input.scope, input.request), run);
    // The thread ends as a crash would, its transaction open: the connection's end rolls it back.
    if (input.simulateCrash) process.exit(1);
    if (input.record) {
      port.postMessage({ kind: "report", report } satisfies FromThread);
      const answer = await next(port);
      if (answer.kind === "abort") {
        db.exec("ROLLBACK");
        port.postMessage({ kind: "aborted" } satisfies FromThread);
        return;
      }
      // The request's record lands with the erase, or neither does.
      runSync(writeBatch(sqliteDialect, input.scope, { operations: [answer.operation] }), run);
    }
    db.exec("COMMIT");
    port.postMessage({ kind: "committed", report } satisfies FromThread);
    // Move the overwritten pages out of the WAL so the erased text is gone from disk too.
    db.pragma("wal_checkpoint(TRUNCATE)");
    port.postMessage({ kind: "done", report } satisfies FromThread);
  } catch (error) {
    if (db?.inTransaction) db.exec("ROLLBACK");
    port.postMessage({ kind: "failed", error: toWire(error) } satisfies FromThread);
  } finally {
    if (db?.open) db.close();
  }
}

function toWire(error: unknown): WireError {
  if (error instanceof MemlaneError)
    return { memlane: true, code: error.code, message: error.message, details: error.details };
  const e = error as { message?: unknown; name?: unknown; code?: unknown };
  return {
    message: String(e?.message ?? error),
    ...(typeof e?.name === "string" ? { name: e.name } : {}),
    ...(typeof e?.code === "string" ? { code: e.code } : {}),
  };
}

/** The classes a forget throws on purpose, by code; any other code comes back as a MemlaneError. */
const CLASSES: Partial<
  Record<ErrorCode, new (message: string, details: Record<string, unknown>) => MemlaneError>
> = {
  INVALID_INPUT: InvalidInputError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  STORE_UNAVAILABLE: StoreUnavailableError,
};

/** An error from the thread as the calling thread would have thrown it. */
function fromWire(wire: WireError, path: string): Error {
  if (wire.memlane) {
    const code = wire.code as ErrorCode;
    const Class = CLASSES[code];
    return Class
      ? new Class(wire.message, wire.details ?? {})
      : new MemlaneError(code, wire.message, wire.details ?? {});
  }
  const error = Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });
  if (wire.name) error.name = wire.name;
  return storeError(error, path);
}
