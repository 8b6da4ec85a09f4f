/**
 * PGlite in a worker thread. PGlite runs each statement to its end in the thread that calls it:
 * in the serving thread, one big statement held every other caller (the stall bench, hash
 * embedder, 2026-11-25: a 200-session upload 3.1 s, the cold load of a 20K-turn scope 1.7 s). Here
 * the database lives in a thread of its own and this one only sends statements and receives rows,
 * so the serving thread stays free while Postgres works.
 *
 * The worker is inline CommonJS that imports PGlite by absolute path (as the bundled encoder's
 * workers do), so it runs the same from source, from dist/, or installed as a dependency. It takes
 * one request at a time; callers (pglite-client.ts) already queue theirs. A worker with nothing
 * pending does not keep the process alive, as PGlite in this thread would not.
 */

import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { StoreUnavailableError } from "../../core/errors.js";
import { missingPackage, missingPackageError, OPTIONAL_FEATURES } from "../../core/optional-packages.js";
import type { SqlRow } from "./sql-client.js";

/** What the worker answers a query with. */
export interface WorkerResult<R = SqlRow> {
  rows: R[];
  affectedRows: number;
}

type Request =
  | { op: "query"; sql: string; params?: unknown[] }
  | { op: "exec"; sql: string }
  | { op: "close" };

/** An error as it crosses the thread: Postgres's fields kept, so pg-errors.ts reads it as before. */
interface WireError {
  message: string;
  name?: string;
  [field: string]: string | undefined;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const FIELDS = ["code", "detail", "hint", "severity", "constraint", "table", "column", "schema", "where", "position"];
const wire = (e) => {
  const out = { message: String((e && e.message) || e), name: e && e.name };
  for (const f of FIELDS) if (e && e[f] !== undefined) out[f] = String(e[f]);
  return out;
};
(async () => {
  let db;
  try {
    const [{ PGlite }, { vector }] = await Promise.all([import(workerData.pglite), import(workerData.vector)]);
    db = await PGlite.create({ ...(workerData.dataDir ? { dataDir: workerData.dataDir } : {}), extensions: { vector } });
  } catch (e) {
    parentPort.postMessage({ id: 0, error: wire(e) });
    return;
  }
  // One request at a time, in the order sent: a close waits for the statements before it.
  let tail = Promise.resolve();
  parentPort.on("message", (message) => {
    tail = tail.then(() => handle(message));
  });
  async function handle({ id, request }) {
    try {
      if (request.op === "query") {
        const r = await db.query(request.sql, request.params);
        parentPort.postMessage({ id, result: { rows: r.rows, affectedRows: r.affectedRows || 0 } });
      } else if (request.op === "exec") {
        await db.exec(request.sql);
        parentPort.postMessage({ id, result: { rows: [], affectedRows: 0 } });
      } else {
        await db.close();
        parentPort.postMessage({ id, result: { rows: [], affectedRows: 0 } });
      }
    } catch (e) {
      parentPort.postMessage({ id, error: wire(e) });
    }
  }
  parentPort.postMessage({ id: 0, ready: true });
})();
`;

/** An error from the worker as an Error again, with the Postgres fields the store's mapping reads. */
function unwire(e: WireError): Error {
  const { message, name, ...fields } = e;
  const error = Object.assign(new Error(message), fields);
  if (name) error.name = name;
  return error;
}

/** One PGlite database, opened in a worker thread of its own. */
export class PgliteWorker {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<
    number,
    { resolve: (r: WorkerResult) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  /** Why the worker can take no more requests (it failed to start, died, or was closed). */
  private failed: Error | null = null;
  private closing = false;

  /** `dataDir` is a directory, or null for a database that lives as long as the worker. */
  constructor(dataDir: string | null, label: string) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        dataDir,
        pglite: installedUrl("@electric-sql/pglite"),
        vector: installedUrl("@electric-sql/pglite-pgvector"),
      },
    });
    let rejectReady: (error: Error) => void = () => {};
    this.ready = new Promise<void>((resolveReady, reject) => {
      rejectReady = reject;
      const onStart = (m: { id: number; ready?: boolean; error?: WireError }) => {
        if (m.id !== 0) return;
        this.worker.off("message", onStart);
        if (m.ready) resolveReady();
        else {
          this.failed = unwire(m.error ?? { message: "PGlite did not start" });
          rejectReady(this.failed);
        }
      };
      this.worker.on("message", onStart);
    });
    // A failed start is reported to every request that waits for it, not as an unhandled rejection.
    this.ready.catch(() => {});
    this.worker.on("message", (m: { id: number; result?: WorkerResult; error?: WireError }) => {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      this.pending.delete(m.id);
      if (m.error) waiting.reject(unwire(m.error));
      else waiting.resolve(m.result!);
      this.reference();
    });
    const die = (error: Error) => {
      this.failed ??= new StoreUnavailableError(
        `The PGlite database ${label} stopped: ${error.message}`,
        {},
        error,
      );
      // A thread that ends before it is ready fails the requests waiting for its start too.
      rejectReady(this.failed);
      for (const waiting of this.pending.values()) waiting.reject(this.failed);
      this.pending.clear();
      this.reference();
    };
    this.worker.on("error", die);
    this.worker.on("exit", (code) => die(new Error(`its thread ended (code ${code})`)));
    // Referenced while it starts: a caller awaiting the start must not see the process end first.
    this.worker.ref();
    this.ready.then(
      () => this.reference(),
      () => this.reference(),
    );
  }

  /** One statement with `$1…` parameters. */
  query<R = SqlRow>(sql: string, params?: unknown[]): Promise<WorkerResult<R>> {
    return this.send({ op: "query", sql, ...(params ? { params } : {}) }) as Promise<WorkerResult<R>>;
  }

  /** Several statements without parameters. */
  async exec(sql: string): Promise<void> {
    await this.send({ op: "exec", sql });
  }

  /** Closes the database (its files are complete on disk after this), then ends the thread. */
  async close(): Promise<void> {
    if (this.closing) return;
    // From here on the thread stays referenced until it ends (an unreferenced thread's end would
    // not keep the process alive for this await), and no new request is taken.
    this.closing = true;
    this.worker.ref();
    try {
      if (!this.failed) await this.send({ op: "close" });
    } finally {
      this.failed ??= new StoreUnavailableError("The PGlite database was closed");
      await this.worker.terminate();
    }
  }

  private async send(request: Request): Promise<WorkerResult> {
    if (this.closing && request.op !== "close")
      throw new StoreUnavailableError("The PGlite database was closed");
    await this.ready;
    if (this.failed) throw this.failed;
    const id = this.nextId++;
    const result = new Promise<WorkerResult>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.reference();
    try {
      this.worker.postMessage({ id, request });
    } catch (error) {
      // A parameter structured clone cannot copy: nothing was sent, so nothing waits.
      this.pending.delete(id);
      this.reference();
      throw error;
    }
    return result;
  }

  /** The thread keeps the process alive only while a request waits for it (or it is closing). */
  private reference(): void {
    if (this.closing) return;
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }
}

/**
 * A package's entry as a URL the worker can import.
 * @throws {UnsupportedError} PGlite is not installed (the message says how to install it)
 */
function installedUrl(name: string): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve(name)).href;
  } catch (error) {
    const missing = missingPackage(error, OPTIONAL_FEATURES.pglite.packages);
    throw missing ? missingPackageError("pglite", missing, error) : error;
  }
}
