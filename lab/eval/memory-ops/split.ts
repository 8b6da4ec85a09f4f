/**
 * How labelled data is split before anyone looks at scores: a frozen part (one item in five of
 * every group, chosen by a hash of its id) scored once at the end, and k folds of the rest for
 * cross-validation. Deterministic: the same ids always land in the same part and fold, whatever
 * the file order, so a rerun on the same data reproduces every figure.
 */
import { fnv1a } from "../../../src/core/text.js";

/** What identifies an item and the group (style, label…) it is balanced within. */
export type SplitKey<T> = (item: T) => { id: string; group: string };

export interface Split<T> {
  /** Items to tune and cross-validate on. */
  dev: T[];
  /** Items scored once, at the end, by a model that never saw them. */
  frozen: T[];
}

/** The frozen part takes every fifth item of each group in hash order (about 20 %). */
export function splitFrozen<T>(items: T[], key: SplitKey<T>): Split<T> {
  const dev: T[] = [];
  const frozen: T[] = [];
  for (const group of hashOrderedGroups(items, key))
    group.forEach((item, i) => {
      (i % 5 === 2 ? frozen : dev).push(item);
    });
  return { dev, frozen };
}

/** k folds of `items`, each group dealt round-robin in hash order so every fold holds every group. */
export function folds<T>(items: T[], k: number, key: SplitKey<T>): T[][] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`folds needs k >= 2, got ${k}`);
  const out: T[][] = Array.from({ length: k }, () => []);
  let next = 0;
  for (const group of hashOrderedGroups(items, key)) for (const item of group) out[next++ % k]!.push(item);
  return out;
}

function hashOrderedGroups<T>(items: T[], key: SplitKey<T>): T[][] {
  const groups = new Map<string, { item: T; hash: number; id: string }[]>();
  for (const item of items) {
    const { id, group } = key(item);
    const list = groups.get(group) ?? [];
    list.push({ item, hash: fnv1a(`memlane-split:${id}`) >>> 0, id });
    groups.set(group, list);
  }
  return [...groups.keys()].sort().map((g) =>
    groups
      .get(g)!
      .sort((a, b) => a.hash - b.hash || a.id.localeCompare(b.id))
      .map((x) => x.item),
  );
}
