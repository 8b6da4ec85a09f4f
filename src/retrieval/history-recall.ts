/**
 * Recall that knows history. An ordinary question searches active memories only, and its k are
 * picked to cover the most evidence (evidence-cover.ts). A question
 * about an earlier state or about whether a state still holds (see temporal-intent.ts) searches
 * superseded memories too, gathers each hit's versions through `Supersedes` and `FusedInto`
 * edges, and hands back whole chains, each hit marked current or past:
 *   - "still": the chain's current version first, then its predecessors, newest first;
 *   - "past": the earlier version the question points at first (the one whose successor matches
 *     the question's anchor — "before Bristol" — else the best-scoring or latest earlier one),
 *     then the current version when the search found it as well; the rest of the chain follows
 *     the other facts found (every hit carries its whole chain, so the current one is always shown).
 * A chain leads with at most two versions; its others come after the other facts found. A
 * *before* / *after* question is searched from its anchor first (`anchoredSearch`), over memories
 * and over raw turns alike.
 * A statement that closed a state (CareCall's DELETE keeps it retired, "Sam got over his cold")
 * is the current end of its chain: nothing came after it.
 */

import { isOwnReply } from "../core/own-reply.js";
import {
  memoryHit,
  type Recall,
  type RecallHit,
  type VersionEntry,
  type VersionStatus,
} from "../core/recall.js";
import { terms } from "../core/text.js";
import type { Memory, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import { coverDepth, coverFirst, missedTurns } from "./evidence-cover.js";
import type { MemorySearch, Retriever } from "./retriever.js";
import { type TemporalIntent, temporalIntent } from "./temporal-intent.js";
import type { TurnSearch } from "./turn-search.js";

/** A guard against a pathological graph: versions gathered per chain at most. */
const MAX_VERSIONS = 16;

/** Versions of one chain placed before the next fact's hits. */
const LEADING_VERSIONS = 2;

/** Hits searched for a history question: a chain takes several places, and a past version may rank low. */
const widen = (k: number) => Math.max(k * 3, 10);

/** Edge types that join two versions of one fact. */
const VERSION_EDGES = new Set(["Supersedes", "FusedInto"]);

export interface HistorySearchResult {
  hits: RecallHit[];
  /** The question's reading; `none` when recall was ordinary. */
  intent: TemporalIntent;
}

/**
 * The k best memories for a search, with history when the question asks for it. Pass `intent` to
 * skip reading the question again. A filter that names statuses itself is searched as it is.
 */
export async function searchWithHistory(
  retriever: Retriever,
  store: MemoryStore,
  scope: Scope,
  search: MemorySearch,
  intent: TemporalIntent = temporalIntent(search.query),
): Promise<HistorySearchResult> {
  if (intent.kind === "none" || search.filter?.status !== undefined) {
    // An ordinary question: the k that cover the most evidence among the best (evidence-cover.ts).
    const found = await retriever.searchMemories(scope, { ...search, k: coverDepth(search.k) });
    return { hits: coverFirst(found, search.k), intent };
  }
  if (intent.kind === "event")
    return { hits: await withPastChains(store, scope, await eventSearch(retriever, scope, search)), intent };
  const wide: MemorySearch = {
    ...search,
    k: widen(search.k),
    filter: { ...search.filter, status: ["active", "superseded"] },
  };
  const found = hasAnchor(intent)
    ? await anchoredSearch(
        (query, k) => retriever.searchMemories(scope, { ...wide, query, k }),
        intent,
        search.query,
        wide.k,
      )
    : await retriever.searchMemories(scope, wide);
  const chains = await versionChains(
    store,
    scope,
    found.flatMap((h) => (h.memory ? [h.memory] : [])),
  );
  const hits: RecallHit[] = [];
  const placed = new Set<string>();
  const place = (hit: RecallHit) => {
    if (placed.has(hit.id)) return;
    placed.add(hit.id);
    hits.push(hit);
  };
  const byId = new Map(found.map((h) => [h.id, h]));
  // A chain leads with two versions (the one asked about and the current one, or the current one
  // and what it replaced); its other versions wait behind every other fact, so one long history
  // cannot push the rest out of the top k. Each hit still carries its whole chain.
  const later: RecallHit[] = [];
  const lead = (versions: RecallHit[]) => {
    for (const h of versions.slice(0, LEADING_VERSIONS)) place(h);
    later.push(...versions.slice(LEADING_VERSIONS));
  };
  for (const hit of found) {
    if (placed.has(hit.id)) continue;
    const chain = chains.get(hit.id);
    if (!chain || chain.versions.length < 2) {
      place(hit);
      continue;
    }
    const { versions, next } = chain;
    const entries = versions.map((m) => entry(m, next.get(m.id) ?? []));
    const asHit = (i: number): RecallHit => {
      const m = versions[i]!;
      const base = byId.get(m.id) ?? memoryHit(m, { score: hit.score, version: 1 });
      return { ...base, status: entries[i]!.status, chain: entries };
    };
    const newestFirst = (status: VersionStatus) =>
      versions.flatMap((_, i) => (entries[i]!.status === status ? [i] : [])).reverse();
    const current = newestFirst("current");
    const earlier = newestFirst("past");
    if (intent.kind === "still") {
      lead([...current, ...earlier].map(asHit));
      continue;
    }
    // The version asked about came right before the anchor ("before Bristol"): a successor says
    // it, and it does not say it itself (a plan to move to Bristol is not where Sam lived before).
    const anchor = intent.anchor === undefined ? [] : anchorTerms(intent.anchor, hit.about);
    const says = (m: Memory | undefined) => m !== undefined && saysAny(m.text, anchor);
    // "…before she moved": the version whose successor says the anchor; "…while she trained":
    // the version that says it.
    const before = (i: number) =>
      intent.signal === "during-clause"
        ? says(versions[i])
        : !says(versions[i]) && (next.get(versions[i]!.id) ?? []).some((id) => says(chain.byId.get(id)));
    const score = (i: number) => byId.get(versions[i]!.id)?.score ?? Number.NEGATIVE_INFINITY;
    // Right before the anchor first, then what the search ranked higher, then the later version.
    const ranked = [...earlier].sort((a, b) => Number(before(b)) - Number(before(a)) || score(b) - score(a));
    const [first, ...rest] = ranked;
    // The current version leads only if the search found it too; otherwise it is in the chain
    // and follows the other facts, which a wrong supersession must not push out.
    const searched = current.filter((i) => byId.has(versions[i]!.id));
    const unfound = current.filter((i) => !byId.has(versions[i]!.id));
    lead([...(first === undefined ? [] : [first]), ...searched].map(asHit));
    later.push(...[...unfound, ...rest].map(asHit));
  }
  for (const hit of later) place(hit);
  return { hits: hits.slice(0, search.k), intent };
}

/**
 * A question measured from an anchor: "Where did Tom work before he went freelance?", "Where did
 * Zoe move right after the breakup?". Used for every such question, over memories (before the
 * version chains are gathered: most states the operator kept side by side have no chain) and over
 * raw turns. The anchor ("he went freelance") is searched on its own; its best hit dates it if it
 * says one of the anchor's words (else the anchor dates nothing and the whole question is
 * searched). The main clause ("where did tom work") is searched without the anchor's words, which
 * would pull the later state up. What was said no later than the anchor (*before*), or no earlier
 * (*after*), comes first, in the main search's order. The anchor's own hit comes next, found by
 * the main search or not: it states the anchor, and often the other state too ("I handed in my
 * notice at the bank"); a chain through it is then found as well. The rest keep their order.
 * `search` runs one query.
 */
export async function anchoredSearch(
  search: (query: string, k: number) => Promise<RecallHit[]>,
  intent: AnchoredIntent,
  question: string,
  k: number,
): Promise<RecallHit[]> {
  const [dated] = await search(intent.anchor, 1);
  if (dated === undefined || !saysAny(dated.text, anchorTerms(intent.anchor, dated.about)))
    return search(question, k);
  const found = await search(intent.main, k);
  const after = intent.signal === "after-clause";
  const asked = (h: RecallHit) =>
    h.id !== dated.id && (after ? h.observedAt >= dated.observedAt : h.observedAt <= dated.observedAt);
  const rest = found.filter((h) => h.id !== dated.id && !asked(h));
  return [...found.filter(asked), dated, ...rest].slice(0, k);
}

/** A temporal intent measured from an anchor: its anchor and main clause are known. */
export type AnchoredIntent = TemporalIntent & { anchor: string; main: string };

/**
 * What a past version scores against a current one in answer to a question about an event: the
 * share of its search score it keeps, so that of two equal matches the current one comes first.
 * Chosen leave-one-conversation-out over locomo-dev and recall-dev (carecall memories, R@10) from
 * 1.0, 0.9, 0.8, 0.7 and 0.6: five folds of seven chose 0.9, two chose 1.0.
 */
export const PAST_EVENT_SHARE = 0.9;

/**
 * A question about an event ("When did Sam go to the support group?"): the memory of it may have
 * been replaced by a later statement about the same thing, and the event still happened. Current
 * and past versions are searched together; a past one keeps PAST_EVENT_SHARE of its score; then the
 * k that cover the most evidence are picked, as for an ordinary question. No chains: the question
 * asks what happened, not how a fact changed.
 */
async function eventSearch(retriever: Retriever, scope: Scope, search: MemorySearch): Promise<RecallHit[]> {
  const depth = coverDepth(search.k);
  const found = await retriever.searchMemories(scope, {
    ...search,
    k: 2 * depth,
    filter: { ...search.filter, status: ["active", "superseded"] },
  });
  const scored = found.map((h) => {
    if (h.status !== "past") return h;
    const score = h.score * PAST_EVENT_SHARE;
    return { ...h, score, explanation: { ...h.explanation, pastShare: PAST_EVENT_SHARE, score } };
  });
  // Stable: among equal scores the search's order stands.
  scored.sort((a, b) => b.score - a.score);
  return coverFirst(scored.slice(0, depth), search.k);
}

/**
 * Past hits with their chains, so whoever reads them learns what replaced each; current hits stay
 * as they are (an event question asks what happened, not how a fact changed).
 */
async function withPastChains(store: MemoryStore, scope: Scope, hits: RecallHit[]): Promise<RecallHit[]> {
  const past = hits.flatMap((h) => (h.status === "past" && h.memory ? [h.memory] : []));
  if (past.length === 0) return hits;
  const chains = await versionChains(store, scope, past);
  return hits.map((h) => {
    const chain = h.status === "past" ? chains.get(h.id) : undefined;
    if (!chain || chain.versions.length < 2) return h;
    const entries = chain.versions.map((m) => entry(m, chain.next.get(m.id) ?? []));
    return { ...h, chain: entries };
  });
}

/** Whether a question is measured from an anchor (`anchoredSearch`). */
export function hasAnchor(intent: TemporalIntent): intent is AnchoredIntent {
  return Boolean(intent.anchor) && Boolean(intent.main);
}

/**
 * Raw turns for a search, with history when the question asks for it. Turns have no versions, so
 * only a question measured from an anchor reads differently (`anchoredSearch`); for any other the
 * intent handed back is `none`, as the search was ordinary.
 */
export async function searchTurnsWithHistory(
  retriever: Retriever,
  scope: Scope,
  search: TurnSearch & { query: string },
  intent: TemporalIntent = temporalIntent(search.query),
): Promise<HistorySearchResult> {
  if (!hasAnchor(intent))
    return { hits: await retriever.searchTurns(scope, search), intent: { kind: "none" } };
  const hits = await anchoredSearch(
    (query, k) => retriever.searchTurns(scope, { ...search, query, k }),
    intent,
    search.query,
    widen(search.k),
  );
  return { hits: hits.slice(0, search.k), intent };
}

/**
 * Candidates per ranker for the turns the memories missed: as deep as memory search reads turns
 * for its source signal. Against the turn ranker's own depth (1,000), carecall's R@10 with 1-3
 * turns hardly moved on LoCoMo dev and recall-dev (`npm run lab -- eval recall … --turns 2`), and
 * a search took a fraction of the time (`npm run bench -- recall --signals`).
 */
export const MISSED_TURNS_DEPTH = 100;

/**
 * `memories` (a recall's hits) followed by up to `n` raw turns that none of them, nor of
 * `alsoShown` (the standing items shown beside them), was made from: the turn ranker's best for
 * the same search (`missedTurns`), read deep enough that n such turns are found when the scope has
 * them. The agent's own generated replies are left out: they are what it said, not what it was
 * told. This is what `recall({ turns: n })` returns; the recall eval measures it.
 */
export async function withMissedTurns(
  retriever: Retriever,
  scope: Scope,
  memories: RecallHit[],
  search: Omit<TurnSearch, "k"> & { query: string },
  n: number,
  alsoShown: RecallHit[] = [],
): Promise<RecallHit[]> {
  if (n <= 0) return memories;
  const shown = [...memories, ...alsoShown];
  const covered = new Set(shown.flatMap((m) => m.sourceTurns));
  const { hits } = await searchTurnsWithHistory(retriever, scope, {
    ...search,
    k: covered.size + n,
    depth: search.depth ?? MISSED_TURNS_DEPTH,
  });
  const told = hits.filter((h) => !(h.turn && isOwnReply(h.turn, scope.agent)));
  return [...memories, ...missedTurns(shown, told, n)];
}

/** Sets the recall's `temporal` mark from a history search. */
export function markTemporal(recall: Recall, intent: TemporalIntent): Recall {
  // A question about an event is an ordinary recall that may show past versions (each hit says so).
  return intent.kind === "none" || intent.kind === "event" ? recall : { ...recall, temporal: intent.kind };
}

/** The anchor's content terms, the subject's own name aside (it is in every version). */
function anchorTerms(anchor: string, about: string): string[] {
  const subject = new Set(terms(about));
  return terms(anchor).filter((t) => !subject.has(t));
}

function saysAny(text: string, wanted: string[]): boolean {
  if (wanted.length === 0) return false;
  const said = new Set(terms(text));
  return wanted.some((t) => said.has(t));
}

function entry(m: Memory, replacedBy: string[]): VersionEntry {
  // A retired closing statement with nothing after it is what holds now: the state it ended is over.
  const status: VersionStatus =
    m.status === "active" || (replacedBy.length === 0 && m.attributes.retired !== undefined)
      ? "current"
      : "past";
  return {
    id: m.id,
    text: m.text,
    observedAt: m.observedAt,
    ...(m.invalidAt && status === "past" ? { invalidAt: m.invalidAt } : {}),
    status,
    ...(replacedBy.length ? { replacedBy } : {}),
  };
}

/** The versions of one fact: oldest first, and which versions directly replaced or closed each. */
export interface VersionChain {
  versions: Memory[];
  byId: Map<string, Memory>;
  /** Memory id -> the ids of the versions that came directly after it. */
  next: Map<string, string[]>;
}

/**
 * Each memory's chain: the memories reachable through version edges in either direction
 * (`Supersedes` points from the newer version, `FusedInto` to it). Memories of one chain share it.
 */
export async function versionChains(
  store: MemoryStore,
  scope: Scope,
  memories: Memory[],
): Promise<Map<string, VersionChain>> {
  const known = new Map(memories.map((m) => [m.id, m]));
  const chains = new Map<string, VersionChain>();
  for (const start of memories) {
    if (chains.has(start.id)) continue;
    const members = new Set([start.id]);
    const next = new Map<string, string[]>();
    const seenEdges = new Set<string>();
    let frontier = [start.id];
    while (frontier.length && members.size < MAX_VERSIONS) {
      const edges = (await store.listEdges(scope, frontier)).filter(
        (e) => VERSION_EDGES.has(e.type) && !seenEdges.has(e.id),
      );
      const reached = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter((id) => !members.has(id));
      const missing = reached.filter((id) => !known.has(id));
      if (missing.length)
        for (const m of await store.listMemories(scope, { ids: missing, status: "any" })) known.set(m.id, m);
      const alive = (id: string) => known.has(id) && known.get(id)!.status !== "forgotten";
      frontier = reached.filter(alive).slice(0, MAX_VERSIONS - members.size);
      for (const id of frontier) members.add(id);
      for (const e of edges) {
        seenEdges.add(e.id);
        const [older, newer] = e.type === "Supersedes" ? [e.to, e.from] : [e.from, e.to];
        if (members.has(older) && members.has(newer)) next.set(older, [...(next.get(older) ?? []), newer]);
      }
    }
    const versions = [...members]
      .map((id) => known.get(id)!)
      .sort(
        (a, b) =>
          a.observedAt.localeCompare(b.observedAt) ||
          Number(a.status === "active") - Number(b.status === "active") ||
          a.recordedAt.localeCompare(b.recordedAt),
      );
    const chain = { versions, byId: new Map(versions.map((m) => [m.id, m])), next };
    for (const m of versions) chains.set(m.id, chain);
  }
  return chains;
}
