/**
 * The orders stores list memories in (by conversation time, then by when they were recorded, then
 * by id) and edges in (by when they were recorded, then by id). Caches that hold a scope's rows
 * keep these orders, so what they hand out matches what a fresh read of the store would give.
 */
import type { Edge, Memory } from "./types.js";

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Older first: observed, then recorded, then id. */
export function byStoreOrder(a: Memory, b: Memory): number {
  return compare(a.observedAt, b.observedAt) || compare(a.recordedAt, b.recordedAt) || compare(a.id, b.id);
}

/** Older first: recorded, then id. */
export function byEdgeOrder(a: Edge, b: Edge): number {
  return compare(a.recordedAt, b.recordedAt) || compare(a.id, b.id);
}
