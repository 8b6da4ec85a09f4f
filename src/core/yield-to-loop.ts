/**
 * Long synchronous work that gives the event loop back now and then. Offline thinking (parsing,
 * summarizing, linking) and bulk ingest run in the process that serves requests; without a pause
 * one consolidation or upload holds every other caller (health checks, other tenants' recalls,
 * job heartbeats) until it ends. `breathe()` costs nothing until SLICE_MS have passed since the
 * last pause, then lets timers and I/O run once.
 */

/** Longest stretch of work between two pauses, in milliseconds. */
export const SLICE_MS = 20;

/**
 * Items a pass over a whole scope handles between two calls of `breathe()`, where an item costs
 * less than a look at the clock (adding to a map, copying a row).
 */
export const ITEMS_PER_LOOK = 1024;

let since = performance.now();

/** Resolves at once while the slice lasts; after it, on the next turn of the event loop. */
export function breathe(): Promise<void> | undefined {
  const now = performance.now();
  if (now - since < SLICE_MS) return undefined;
  return new Promise((resolve) =>
    setImmediate(() => {
      since = performance.now();
      resolve();
    }),
  );
}

/**
 * `items.map(fn)` that pauses whenever the slice is spent: for turning a large result set (a
 * scope's rows, read by one query) into objects without holding the loop for all of them.
 */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T) => U): Promise<U[]> {
  const out = new Array<U>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]!);
    const pause = breathe();
    if (pause) await pause;
  }
  return out;
}
