/**
 * Writes to a SQLite file wait, without blocking, while this process erases from it on another
 * thread. A forget runs on a worker thread with a connection of its own (forget-worker.ts) and
 * holds the file's write lock for its whole run; a write from the serving thread that reached
 * SQLite meanwhile would wait for the lock inside better-sqlite3's busy handler, which sleeps on
 * the thread that serves every other request (and gives up after the busy timeout). So every
 * connection this process keeps to a file (the memory store's, the keys', the ingest jobs') asks
 * the gate first and awaits the forget in flight; the event loop stays free, and the write lands
 * after the forget. Other processes are not covered: they wait in their own busy handler.
 */
import { resolve } from "node:path";

/** The erase in flight per file (by absolute path), the last of a chain when several were asked. */
const held = new Map<string, Promise<unknown>>();

/** A file's key in the gate: in-memory databases are private to their connection and never held. */
function keyOf(path: string): string | null {
  return path === ":memory:" || path === "" ? null : resolve(path);
}

/**
 * Resolves when no erase holds the file (at once, without a turn of the loop, when none does). A
 * write calls it right before its transaction; a forget asked while it waited is waited for too,
 * so the write never meets the worker's lock.
 */
export async function writesOpen(path: string): Promise<void> {
  const key = keyOf(path);
  if (key === null) return;
  // The held promises never reject (holdWrites keeps their settling only).
  for (let gate = held.get(key); gate; gate = held.get(key)) await gate;
}

/**
 * Runs `work` (an erase on another connection) once the erases asked before it have ended, and
 * holds the file's writes until it ends, however it ends. The hold starts now, before any await,
 * so a write asked after this call waits for it.
 */
export function holdWrites<T>(path: string, work: () => Promise<T>): Promise<T> {
  const key = keyOf(path);
  if (key === null) return work();
  const before = held.get(key);
  const run = before ? before.catch(() => {}).then(work) : work();
  const settled = run.catch(() => {});
  held.set(key, settled);
  settled.then(() => {
    if (held.get(key) === settled) held.delete(key);
  });
  return run;
}
