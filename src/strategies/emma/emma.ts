/**
 * Strategy `emma` (Jang, Kim and Kim 2024, "Mixed-Session Conversation with Egocentric Memory"). The
 * agent meets a different partner in each session, in any order, partners recurring, and keeps
 * one memory of all of them, written from its own point of view.
 *   Session end: the agent summarizes the session into memories about itself ("I …") and about
 *     each partner (by name), nothing if nothing is worth keeping (`emma.summarize`); then links
 *     related memories (`emma.link`), first among the session's new memories, then new against
 *     old. A memory related to several memories of one linked group links to the newest of them
 *     only, so updates form chains a–b–c, not stars. Links are `Link` edges, older -> newer;
 *     nothing is superseded.
 *   Recall: the top-k memories (k = 1, the paper's) over everything the agent remembers — any
 *     subject, any past session — and the memories linked to each (one hop), newest first, so
 *     the later state of a linked story comes with the memory that found it.
 */

import { InvalidInputError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { memoryFilterTest } from "../../core/memory-filter.js";
import { GraphOverlay, linkTargets, type MemoryGraph } from "../../core/memory-graph.js";
import { memoryHit, type Recall, type RecallHit, type RecallTimeline } from "../../core/recall.js";
import type { Edge, Memory, MemoryFilter, Session } from "../../core/types.js";
import { composeReply } from "../kit/compose-reply.js";
import { nearestMemories } from "../kit/memory-vectors.js";
import { statementMemory } from "../kit/statement-memory.js";
import { withWarnings } from "../kit/step-warnings.js";
import {
  type RecallContext,
  type SessionContext,
  type StandingOption,
  type Strategy,
  standingSetting,
} from "../strategy.js";
import { emmaLinkStep, type LinkJudge, type NumberedPair, type RelatedPair } from "./steps/link.js";
import { type EmmaPerson, emmaSummarizeStep } from "./steps/summarize.js";

/**
 * What recall asks the retriever with: `"utterance"` (default) the caller's query, which in a
 * reply is the partner's last utterance; `"context"` the last few turns of the session, both
 * speakers (the paper encodes the whole session so far).
 */
export type EmmaQuery = "utterance" | "context";

export interface EmmaOptions extends StandingOption {
  /** Memories recalled before links are added (the paper's top-1). */
  k?: number;
  /** How many link hops around each recalled memory are added (the paper: 1; 0: none). */
  hops?: number;
  /** Older memories, most similar first, that each new memory is judged against. */
  shortlist?: number;
  query?: EmmaQuery;
  /**
   * Also add the newest memory reachable forward from each recalled one, however far (default
   * false: in a large linked group that is simply the newest memory of the group).
   */
  chainEnd?: boolean;
  /**
   * Offline: least salience for a sentence to become a memory (default EMMA_SALIENCE, chosen for
   * egocentric memory on its own tune episodes; the shared summarizer's default is
   * DEFAULT_MIN_SALIENCE).
   */
  minSalience?: number;
  /** Offline: how a pair is judged related (default DEFAULT_JUDGE, the similarity of the gists). */
  judge?: LinkJudge;
  /** Offline: least relatedness (0 to 1) for two memories to be linked (default: the judge's). */
  minRelated?: number;
}

/** Least salience of an offline memory; chosen on the tune episodes (`npm run lab -- eval emma --part tune`). */
export const EMMA_SALIENCE = 1.5;

/** Turns of the session used as the query in `"context"` mode. */
const CONTEXT_TURNS = 4;
const NAME = "emma";

/** The roles a session's meta gives its people (`meta.roles: { id: role }`), if any. */
export function sessionRoles(session: Session): Record<string, string> {
  const roles = session.meta?.roles;
  if (!roles || typeof roles !== "object") return {};
  return Object.fromEntries(Object.entries(roles).filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
}

/** The options, checked and with their defaults. */
interface EmmaSettings {
  k: number;
  hops: number;
  shortlist: number;
  queryMode: EmmaQuery;
  chainEnd: boolean;
  minSalience: number;
  judge?: EmmaOptions["judge"];
  minRelated?: EmmaOptions["minRelated"];
}

/**
 * The EMMA strategy: egocentric memories about the agent and each partner at session end, linked
 * into chains, recalled top-k plus the linked ones.
 * @param options k, hops, shortlist, query mode and the offline knobs (see EmmaOptions)
 * @returns a Strategy named "emma", for `openMemlane({ strategies: [...] })`
 * @throws {InvalidInputError} k below 1, hops or shortlist below 0, or any of them not whole
 * @example openMemlane({ strategies: [emmaStrategy({ hops: 2 })], strategy: "emma" })
 */
export function emmaStrategy(options: EmmaOptions = {}): Strategy {
  const settings = emmaSettings(options);
  return {
    specificationVersion: "v1",
    ...standingSetting(options),
    name: NAME,
    description:
      "egocentric memory about itself and each partner, linked into chains; top-1 recall plus linked memories",
    // Recall across partners is what the paper is for; private memories still stay with their speaker.
    recallScope: "agent",
    onSessionEnd: (ctx) => endSession(ctx, settings),
    recall: (ctx) => recallLinked(ctx, settings),
    compose: (ctx, r) =>
      composeReply(
        ctx,
        r,
        "What you remember, in your own words (you are 'I'; the newest of linked memories holds)",
      ),
  };
}

/** @throws {InvalidInputError} k below 1, hops or shortlist below 0, or any of them not whole */
function emmaSettings(options: EmmaOptions): EmmaSettings {
  const k = options.k ?? 1;
  const hops = options.hops ?? 1;
  const shortlist = options.shortlist ?? 8;
  for (const [field, value, least] of [
    ["k", k, 1],
    ["hops", hops, 0],
    ["shortlist", shortlist, 0],
  ] as const)
    if (!Number.isInteger(value) || value < least)
      throw new InvalidInputError(`emma ${field} must be a whole number of at least ${least}, not ${value}`, {
        field,
      });
  return {
    k,
    hops,
    shortlist,
    queryMode: options.query ?? "utterance",
    chainEnd: options.chainEnd ?? false,
    minSalience: options.minSalience ?? EMMA_SALIENCE,
    ...(options.judge === undefined ? {} : { judge: options.judge }),
    ...(options.minRelated === undefined ? {} : { minRelated: options.minRelated }),
  };
}

/** Session end: the session summarised from the agent's own view, then linked into chains. */
async function endSession(ctx: SessionContext, settings: EmmaSettings): Promise<void> {
  const roles = sessionRoles(ctx.session);
  const person = (id: string): EmmaPerson => (roles[id] ? { id, role: roles[id] } : { id });
  const earlier = (await ctx.store.listSessions(ctx.scope)).filter(
    (s) => s.at < ctx.session.at || (s.at === ctx.session.at && s.id < ctx.session.id),
  );
  const summary = await ctx.cognition.run(
    emmaSummarizeStep,
    {
      agent: person(ctx.scope.agent),
      partners: ctx.session.partners.map(person),
      sessionId: ctx.session.id,
      at: ctx.session.at,
      ordinal: earlier.length + 1,
      turns: ctx.turns,
      minSalience: settings.minSalience,
    },
    { signal: ctx.signal },
  );
  ctx.stage({
    operations: [
      ctx.operation({
        type: "SUMMARIZE",
        model: summary.model,
        usage: summary.usage,
        inputs: {
          session: ctx.session.id,
          turns: ctx.turns.map((t) => t.id),
          step: emmaSummarizeStep.name,
        },
        outputs: withWarnings(
          {
            statements: summary.value.map((s) => ({
              about: s.about,
              text: s.text,
              sourceTurns: s.sourceTurns,
            })),
          },
          summary,
        ),
        rationale: summary.value.length ? null : "nothing worth keeping",
      }),
    ],
  });
  if (summary.value.length === 0) return;
  const fresh = summary.value.map((s) => statementMemory(ctx, NAME, s, { kind: "egocentric" }));
  const { graph: stored } = await ctx.caches.graph(ctx.scope, NAME);
  const edges = await linkSession(ctx, settings, fresh, stored);
  ctx.stage({ memories: fresh, edges });
}

/** Judges the session's links and applies the chain rule; returns the new edges. */
async function linkSession(
  ctx: SessionContext,
  settings: EmmaSettings,
  fresh: Memory[],
  stored: MemoryGraph,
): Promise<Edge[]> {
  const { shortlist } = settings;
  // Each new memory is judged against its most similar older memories (all of them would be
  // |new| x |old| judgements a session, growing with the agent's whole life).
  const vectors = await ctx.embedder.embed(
    fresh.map((m) => m.text),
    { signal: ctx.signal },
  );
  const near = (await nearestMemories(ctx, vectors, shortlist, { strategy: NAME })).lists.map((list) =>
    list.map((x) => x.memory),
  );
  const listed: Memory[] = [...fresh];
  const number = new Map<string, number>(fresh.map((m, i) => [m.id, i]));
  for (const m of near.flat())
    if (!number.has(m.id)) {
      number.set(m.id, listed.length);
      listed.push(m);
    }
  const candidates: NumberedPair[] = [];
  for (let a = 0; a < fresh.length; a++) {
    for (let b = a + 1; b < fresh.length; b++) candidates.push({ a, b });
    for (const m of near[a]!) candidates.push({ a, b: number.get(m.id)! });
  }
  const storedEdges = await ctx.store.listEdges(
    ctx.scope,
    listed.filter((m) => !fresh.includes(m)).map((m) => m.id),
  );
  const known: NumberedPair[] = storedEdges
    .filter((e) => e.type === "Link" && number.has(e.from) && number.has(e.to))
    .map((e) => ({ a: number.get(e.from)!, b: number.get(e.to)! }));
  if (listed.length < 2) return [];
  const result = await ctx.cognition.run(
    emmaLinkStep,
    {
      memories: listed.map((m) => ({
        text: m.text,
        about: m.about === ctx.scope.agent ? "myself" : displayName(m.about),
        at: m.observedAt,
        fresh: number.get(m.id)! < fresh.length,
      })),
      candidates,
      known,
      ...(settings.judge === undefined ? {} : { judge: settings.judge }),
      ...(settings.minRelated === undefined ? {} : { minRelated: settings.minRelated }),
    },
    { signal: ctx.signal },
  );
  const related = result.value;
  const edges = chainLinks(ctx, stored, fresh, listed, related);
  ctx.stage({
    operations: [
      ctx.operation({
        type: "LINK",
        model: result.model,
        usage: result.usage,
        memoryIds: [...new Set(edges.flatMap((e) => [e.from, e.to]))],
        inputs: {
          step: emmaLinkStep.name,
          memories: listed.length,
          fresh: fresh.length,
          candidates: candidates.length,
          shortlist,
        },
        outputs: withWarnings(
          {
            related: related.map((p) => ({ a: listed[p.a]!.id, b: listed[p.b]!.id, why: p.why })),
            links: edges.map((e) => ({ from: e.from, to: e.to, judged: e.attributes.judged })),
          },
          result,
        ),
        rationale: edges.length
          ? `${related.length} related pair(s) became ${edges.length} link(s) (chain rule: an update links to the newer end)`
          : "no related memories",
      }),
    ],
  });
  return edges;
}

/**
 * The paper's order and chain rule: first the pairs within the session, then new against old.
 * Of the memories a new one is related to, it links to the newest in each linked group — when
 * it relates to both ends of a linked pair, only to the newer end — so an update extends the
 * chain instead of making a star (`linkTargets`, the rule Theanine uses for its components).
 * Links run from older to newer.
 */
function chainLinks(
  ctx: SessionContext,
  stored: MemoryGraph,
  fresh: Memory[],
  listed: Memory[],
  related: RelatedPair[],
): Edge[] {
  const graph = new GraphOverlay(stored);
  const order = stored.nodes.size;
  for (const [i, m] of fresh.entries()) graph.addNode({ id: m.id, time: m.observedAt, order: order + i });
  const out: Edge[] = [];
  const isFresh = (i: number) => i < fresh.length;
  for (const phase of ["session", "history"] as const) {
    for (const [i, m] of fresh.entries()) {
      // The memories this one was judged related to in this phase, older than it.
      const judged = related
        .filter((p) => p.a === i || p.b === i)
        .map((p) => (p.a === i ? p.b : p.a))
        .filter((j) => (phase === "session" ? isFresh(j) && j < i : !isFresh(j)))
        .map((j) => listed[j]!.id);
      if (judged.length === 0) continue;
      // Groups m already belongs to (through this session's links) are not linked again.
      const targets = linkTargets(graph, judged, m.id);
      for (const t of targets) {
        graph.addEdge({ from: t, to: m.id, relation: "Link" });
        out.push({
          id: `edge_${t}_${m.id}`,
          tenant: ctx.scope.tenant,
          agent: ctx.scope.agent,
          from: t,
          to: m.id,
          type: "Link",
          attributes: { strategy: NAME, phase, judged },
          recordedAt: new Date().toISOString(),
        });
      }
    }
  }
  return out;
}

/**
 * Who everyone is and which session this is, as EMMA's reply is told them (the paper's
 * generation input names both speakers' roles; its memories say from which session they come).
 */
async function settingOf(ctx: RecallContext): Promise<string[]> {
  const session = ctx.session;
  if (!session) return [];
  const roles = sessionRoles(session);
  const earlier = (await ctx.store.listSessions(ctx.scope)).filter(
    (s) => s.at < session.at || (s.at === session.at && s.id < session.id),
  );
  const lines = [`This is session ${earlier.length + 1} of your conversations.`];
  const people = [ctx.scope.agent, ...session.partners].filter((p) => roles[p]);
  for (const p of people)
    lines.push(p === ctx.scope.agent ? `Your role: ${roles[p]}.` : `${displayName(p)}'s role: ${roles[p]}.`);
  return lines;
}

/** The memories a reply sees (top k and the linked ones), with who everyone is. */
async function recallLinked(ctx: RecallContext, settings: EmmaSettings): Promise<Recall> {
  return { ...(await recallMemories(ctx, settings)), setting: await settingOf(ctx) };
}

async function recallMemories(ctx: RecallContext, settings: EmmaSettings): Promise<Recall> {
  const { k, hops, chainEnd, queryMode } = settings;
  const dialogue = ctx.dialogue ?? [];
  const query =
    queryMode === "context" && dialogue.length > 0
      ? dialogue
          .slice(-CONTEXT_TURNS)
          .map((t) => t.text)
          .join("\n")
      : ctx.query;
  const top = await ctx.retriever.searchMemories(ctx.scope, {
    query,
    k: ctx.k || k,
    filter: { ...ctx.filter, strategy: NAME },
    now: ctx.now ?? ctx.session?.at,
  });
  if (top.length === 0 || (hops === 0 && !chainEnd)) return { strategy: NAME, query: ctx.query, hits: top };
  const { graph, memories } = await ctx.caches.graph(ctx.scope, NAME);
  // Linked memories obey the caller's filter too (recall "about" one person adds no one else's),
  // tested on the graph's own rows: listing the filter's memories grew with the scope.
  const admits = hasFilter(ctx.filter) ? memoryFilterTest({ ...ctx.filter, strategy: NAME }) : null;
  const shown = new Set(top.map((h) => h.id));
  const hits: RecallHit[] = [...top];
  const timelines: RecallTimeline[] = [];
  for (const hit of top) {
    const around = linkedAround(graph, hit.id, hops, chainEnd);
    const group = [hit.id, ...around]
      .map((id) => memories.get(id))
      .filter((m): m is Memory => !!m && (m.id === hit.id || !admits || admits(m)));
    for (const m of group.slice(1).sort(newestFirst)) {
      if (shown.has(m.id) || m.status !== "active") continue;
      shown.add(m.id);
      hits.push(memoryHit(m, { score: hit.score, linked: 1 }));
    }
    if (group.length > 1)
      timelines.push({
        through: hit.id,
        entries: [...group]
          .sort(newestFirst)
          .reverse()
          .map((m, n) => ({
            id: m.id,
            text: m.text,
            at: m.observedAt,
            relation: n === 0 ? null : "Link",
          })),
      });
  }
  return { strategy: NAME, query: ctx.query, hits, timelines };
}

/**
 * Memories within `hops` links of `id`, either direction, nearest first; with `chainEnd`, also
 * the newest memory reachable forward from `id`, however far.
 */
export function linkedAround(graph: MemoryGraph, id: string, hops: number, chainEnd: boolean): string[] {
  const seen = new Set([id]);
  const out: string[] = [];
  let frontier = [id];
  for (let h = 0; h < hops && frontier.length; h++) {
    const next: string[] = [];
    for (const x of frontier)
      for (const e of [...graph.successors(x), ...graph.predecessors(x)]) {
        if (e.relation !== "Link") continue;
        const other = e.from === x ? e.to : e.from;
        if (seen.has(other)) continue;
        seen.add(other);
        out.push(other);
        next.push(other);
      }
    frontier = next;
  }
  if (chainEnd) {
    const end = graph.mostRecent(graph.descendants(id));
    if (end && !seen.has(end)) out.push(end);
  }
  return out;
}

/** True when a recall filter restricts anything beyond the strategy. */
function hasFilter(filter: MemoryFilter | undefined): boolean {
  return Object.entries(filter ?? {}).some(([key, value]) => key !== "strategy" && value !== undefined);
}

function newestFirst(a: Memory, b: Memory): number {
  return a.observedAt === b.observedAt ? (a.id < b.id ? 1 : -1) : a.observedAt < b.observedAt ? 1 : -1;
}
