/**
 * Theanine's memory graph (Kim et al. 2024) as pure functions: memories are nodes with a time,
 * relation edges run from an older memory to a newer one. Phase I picks which memories a new one
 * links to (Algorithm 1, lines 7-8); Phase II extracts timelines through a retrieved memory
 * (Algorithm 2, lines 6-8). Every walk is bounded and tolerates cycles, so a malformed or huge
 * graph cannot stall a request.
 */
import { breathe, ITEMS_PER_LOOK } from "./yield-to-loop.js";

/** Appends `value` to the list under `key`, starting the list when there is none. */
function pushTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

export interface GraphNode {
  id: string;
  /** Conversation time; ties are broken by `order`, then id. */
  time: string;
  order?: number;
}

export interface GraphEdge {
  from: string;
  to: string;
  relation: string;
}

/** Older first. */
export function compareNodes(a: GraphNode, b: GraphNode): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
  if ((a.order ?? 0) !== (b.order ?? 0)) return (a.order ?? 0) - (b.order ?? 0);
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class MemoryGraph {
  readonly nodes = new Map<string, GraphNode>();
  private readonly out = new Map<string, GraphEdge[]>();
  private readonly in = new Map<string, GraphEdge[]>();

  constructor(nodes: GraphNode[], edges: GraphEdge[]) {
    for (const n of nodes) this.nodes.set(n.id, n);
    for (const e of edges) this.link(e);
  }

  /**
   * The same graph as the constructor makes, built with pauses for other callers: a memory graph
   * of 100K memories and as many links held the event loop half a second built at once.
   */
  static async inSlices(nodes: GraphNode[], edges: Iterable<GraphEdge>): Promise<MemoryGraph> {
    const graph = new MemoryGraph([], []);
    let n = 0;
    for (const node of nodes) {
      graph.nodes.set(node.id, node);
      if (++n % ITEMS_PER_LOOK === 0) await breathe();
    }
    for (const e of edges) {
      graph.link(e);
      if (++n % ITEMS_PER_LOOK === 0) await breathe();
    }
    return graph;
  }

  /** Adds an edge while the graph is built. Self-links and edges to unknown memories are ignored: they carry no timeline. */
  private link(e: GraphEdge): void {
    if (e.from === e.to || !this.nodes.has(e.from) || !this.nodes.has(e.to)) return;
    pushTo(this.out, e.from, e);
    pushTo(this.in, e.to, e);
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  successors(id: string): GraphEdge[] {
    return this.out.get(id) ?? [];
  }

  predecessors(id: string): GraphEdge[] {
    return this.in.get(id) ?? [];
  }

  /** Memories from which `id` can be reached along edges (itself included). */
  ancestors(id: string): Set<string> {
    return this.reach(id, (x) => this.predecessors(x).map((e) => e.from));
  }

  /** Memories reachable from `id` along edges (itself included). */
  descendants(id: string): Set<string> {
    return this.reach(id, (x) => this.successors(x).map((e) => e.to));
  }

  private reach(id: string, next: (x: string) => string[]): Set<string> {
    const seen = new Set<string>([id]);
    const stack = [id];
    while (stack.length)
      for (const n of next(stack.pop()!))
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
    return seen;
  }

  oldest(ids: Iterable<string>): string | undefined {
    return [...ids].map((i) => this.nodes.get(i)!).sort(compareNodes)[0]?.id;
  }

  mostRecent(ids: Iterable<string>): string | undefined {
    return [...ids]
      .map((i) => this.nodes.get(i)!)
      .sort(compareNodes)
      .at(-1)?.id;
  }
}

/** What linking reads of a graph: which memories it holds, their components, the newest of some. */
export interface LinkableGraph {
  has(id: string): boolean;
  successors(id: string): GraphEdge[];
  predecessors(id: string): GraphEdge[];
  mostRecent(ids: Iterable<string>): string | undefined;
}

/**
 * A graph with nodes and edges added on top of a stored one, which it never copies or changes:
 * EMMA links a session's new memories one at a time, each seeing the links made before it, and
 * building a whole graph again after each link grew with the agent's history.
 */
export class GraphOverlay implements LinkableGraph {
  private readonly added = new Map<string, GraphNode>();
  private readonly out = new Map<string, GraphEdge[]>();
  private readonly in = new Map<string, GraphEdge[]>();

  constructor(private readonly base: MemoryGraph) {}

  has(id: string): boolean {
    return this.added.has(id) || this.base.has(id);
  }

  private node(id: string): GraphNode | undefined {
    return this.added.get(id) ?? this.base.nodes.get(id);
  }

  addNode(node: GraphNode): void {
    if (!this.has(node.id)) this.added.set(node.id, node);
  }

  /** Adds an edge; as in a MemoryGraph, a self-link or an edge to an unknown memory is ignored. */
  addEdge(e: GraphEdge): void {
    if (e.from === e.to || !this.has(e.from) || !this.has(e.to)) return;
    pushTo(this.out, e.from, e);
    pushTo(this.in, e.to, e);
  }

  successors(id: string): GraphEdge[] {
    const added = this.out.get(id);
    return added ? [...this.base.successors(id), ...added] : this.base.successors(id);
  }

  predecessors(id: string): GraphEdge[] {
    const added = this.in.get(id);
    return added ? [...this.base.predecessors(id), ...added] : this.base.predecessors(id);
  }

  mostRecent(ids: Iterable<string>): string | undefined {
    return [...ids]
      .map((i) => this.node(i)!)
      .sort(compareNodes)
      .at(-1)?.id;
  }
}

/**
 * Algorithm 1, lines 7-8: of the associative memories the model related to the new one, keep the
 * most recent in each connected component of the graph (before the new memory joins it).
 */
export function linkTargets(graph: LinkableGraph, related: string[], apartFrom?: string): string[] {
  const groups = componentGroups(graph, apartFrom === undefined ? related : [apartFrom, ...related]);
  const own = apartFrom === undefined ? undefined : groups.get(apartFrom);
  const byComponent = new Map<number, string[]>();
  for (const id of related) {
    const c = groups.get(id);
    if (c === undefined || c === own) continue;
    byComponent.set(c, [...(byComponent.get(c) ?? []), id]);
  }
  return [...byComponent.values()].map((ids) => graph.mostRecent(ids)!);
}

/**
 * Which of `ids` share a weakly connected component: one group number per id the graph holds.
 * A search starts from every id at once and each takes a step in turn; searches that meet are
 * one group, and a search that runs out has walked its whole component. It stops as soon as at
 * most one group is still searching, so a component of the agent's whole history is walked only
 * as far as the second largest one asked about (numbering every component, or walking each to
 * its end, held the loop 0.2 s in a 100K-memory history).
 */
export function componentGroups(graph: LinkableGraph, ids: string[]): Map<string, number> {
  const owner = new Map<string, number>();
  const parent: number[] = [];
  const stacks: string[][] = [];
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const join = (a: number, b: number) => {
    const [ra, rb] = [root(a), root(b)];
    if (ra !== rb) parent[rb] = ra;
  };
  const starts = new Map<string, number>();
  for (const id of ids) {
    if (!graph.has(id) || starts.has(id)) continue;
    const i = parent.length;
    parent.push(i);
    starts.set(id, i);
    owner.set(id, i);
    stacks.push([id]);
  }
  const searching = () => new Set(stacks.flatMap((stack, i) => (stack.length ? [root(i)] : []))).size;
  while (searching() > 1)
    for (const [i, stack] of stacks.entries()) {
      const current = stack.pop();
      if (current === undefined) continue;
      for (const e of [...graph.successors(current), ...graph.predecessors(current)])
        for (const next of [e.from, e.to]) {
          const o = owner.get(next);
          if (o === undefined) {
            owner.set(next, i);
            stack.push(next);
          } else join(o, i);
        }
    }
  const groups = new Map<string, number>();
  for (const [id, i] of starts) groups.set(id, root(i));
  return groups;
}

/** A timeline: memories in order, each with the relation of the edge that led to it. */
export interface TimelineStep {
  id: string;
  /** Relation of the edge from the previous step; null for the first. */
  relation: string | null;
}

/** A small seeded generator (mulberry32), so sampled timelines repeat under a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The start of every timeline through `id`: the oldest memory of its component that can reach it.
 * (Algorithm 2 takes the oldest of the component; when that one cannot reach `id`, as after two
 * components merged, no path from it passes through `id`, so we start at the oldest that can.)
 */
export function timelineStart(graph: MemoryGraph, id: string): string {
  return graph.oldest(graph.ancestors(id)) ?? id;
}

/**
 * Algorithm 2, line 7, bounded: every directed linear path from the start through `id` to a
 * memory with no outgoing edge, at most `limit` of them (in a fixed order), visiting at most
 * `budget` steps in all, so path explosion in a dense component cannot stall the search.
 */
export function allTimelines(
  graph: MemoryGraph,
  id: string,
  limit = 100,
  maxLength = 200,
  budget = 20_000,
): TimelineStep[][] {
  if (!graph.nodes.has(id)) return [];
  const start = timelineStart(graph, id);
  const canReach = graph.ancestors(id);
  const out: TimelineStep[][] = [];
  const path: TimelineStep[] = [{ id: start, relation: null }];
  const onPath = new Set([start]);
  let steps = 0;
  const walk = (current: string, passed: boolean) => {
    if (out.length >= limit || ++steps > budget) return;
    const next = graph.successors(current).filter((e) => !onPath.has(e.to) && (passed || canReach.has(e.to)));
    if (next.length === 0 || path.length >= maxLength) {
      // A path cut by maxLength before it passed `id` is no timeline of `id`.
      if (passed) out.push([...path]);
      return;
    }
    for (const e of [...next].sort((a, b) => compareNodes(graph.nodes.get(a.to)!, graph.nodes.get(b.to)!))) {
      path.push({ id: e.to, relation: e.relation });
      onPath.add(e.to);
      walk(e.to, passed || e.to === id);
      path.pop();
      onPath.delete(e.to);
    }
  };
  walk(start, start === id);
  return out;
}

/**
 * Algorithm 2, line 8 with n = 1: one timeline through `id`, chosen at random under `random`,
 * in time linear in its length (no enumeration), so thousands of nodes stay cheap.
 */
export function sampleTimeline(
  graph: MemoryGraph,
  id: string,
  random: () => number,
  maxLength = 200,
): TimelineStep[] {
  if (!graph.nodes.has(id)) return [];
  const canReach = graph.ancestors(id);
  const steps: TimelineStep[] = [{ id: timelineStart(graph, id), relation: null }];
  const seen = new Set([steps[0]!.id]);
  let passed = steps[0]!.id === id;
  while (steps.length < maxLength) {
    const current = steps.at(-1)!.id;
    const next = graph
      .successors(current)
      .filter((e) => !seen.has(e.to) && (passed || canReach.has(e.to)))
      .sort((a, b) => compareNodes(graph.nodes.get(a.to)!, graph.nodes.get(b.to)!));
    if (next.length === 0) break;
    const edge = next[Math.min(next.length - 1, Math.floor(random() * next.length))]!;
    steps.push({ id: edge.to, relation: edge.relation });
    seen.add(edge.to);
    if (edge.to === id) passed = true;
  }
  return steps;
}
