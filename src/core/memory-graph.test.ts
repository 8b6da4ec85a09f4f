import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  allTimelines,
  componentGroups,
  type GraphEdge,
  GraphOverlay,
  linkTargets,
  MemoryGraph,
  sampleTimeline,
  seededRandom,
} from "./memory-graph.js";

const node = (id: string, day: number) => ({
  id,
  time: `2024-01-${String(day).padStart(2, "0")}T00:00:00.000Z`,
});
const edge = (from: string, to: string, relation = "Cause"): GraphEdge => ({ from, to, relation });
const ids = (t: { id: string }[]) => t.map((s) => s.id).join(">");

describe("memory graph (Theanine)", () => {
  it("single node: its own timeline", () => {
    const g = new MemoryGraph([node("a", 1)], []);
    assert.deepEqual(allTimelines(g, "a").map(ids), ["a"]);
    assert.equal(ids(sampleTimeline(g, "a", seededRandom(1))), "a");
    assert.deepEqual(allTimelines(g, "missing"), []);
  });

  it("branching: every path from the oldest through the memory to an end", () => {
    // a -> b -> c, b -> d
    const g = new MemoryGraph(
      [node("a", 1), node("b", 2), node("c", 3), node("d", 4)],
      [edge("a", "b", "Changed"), edge("b", "c"), edge("b", "d", "Want")],
    );
    assert.deepEqual(allTimelines(g, "b").map(ids), ["a>b>c", "a>b>d"]);
    assert.deepEqual(allTimelines(g, "c").map(ids), ["a>b>c"]);
    assert.deepEqual(allTimelines(g, "a")[1], [
      { id: "a", relation: null },
      { id: "b", relation: "Changed" },
      { id: "d", relation: "Want" },
    ]);
    // Sampling is one of them, and repeats under the same seed.
    const sampled = ids(sampleTimeline(g, "b", seededRandom(7)));
    assert.ok(["a>b>c", "a>b>d"].includes(sampled));
    assert.equal(ids(sampleTimeline(g, "b", seededRandom(7))), sampled);
    const seen = new Set(Array.from({ length: 40 }, (_, s) => ids(sampleTimeline(g, "b", seededRandom(s)))));
    assert.equal(seen.size, 2, "both branches are reachable by sampling");
  });

  it("merging: a memory with two parents; timelines start at an ancestor that reaches it", () => {
    // a -> c <- b, c -> d ; b is not reachable from a
    const g = new MemoryGraph(
      [node("a", 1), node("b", 2), node("c", 3), node("d", 4)],
      [edge("a", "c"), edge("b", "c"), edge("c", "d")],
    );
    assert.deepEqual(allTimelines(g, "c").map(ids), ["a>c>d"]);
    assert.deepEqual(allTimelines(g, "b").map(ids), ["b>c>d"]);
    assert.equal(ids(sampleTimeline(g, "b", seededRandom(3))), "b>c>d");
  });

  it("links a new memory to the most recent related memory of each component", () => {
    // component 1: a -> b ; component 2: c ; d alone
    const g = new MemoryGraph([node("a", 1), node("b", 2), node("c", 3), node("d", 4)], [edge("a", "b")]);
    assert.deepEqual(linkTargets(g, ["a", "b", "c"]).sort(), ["b", "c"]);
    assert.deepEqual(linkTargets(g, ["a"]), ["a"]);
    assert.deepEqual(linkTargets(g, []), []);
    assert.deepEqual(linkTargets(g, ["unknown"]), []);
  });

  it("breaks ties between equal times by order, then id", () => {
    const g = new MemoryGraph(
      [
        { id: "x", time: "2024-01-01", order: 2 },
        { id: "y", time: "2024-01-01", order: 1 },
      ],
      [],
    );
    assert.equal(g.mostRecent(["x", "y"]), "x");
    assert.equal(g.oldest(["x", "y"]), "y");
  });

  it("ignores self-links and survives cycles a model might propose", () => {
    const g = new MemoryGraph(
      [node("a", 1), node("b", 2), node("c", 3)],
      [edge("a", "a"), edge("a", "b"), edge("b", "c"), edge("c", "a")],
    );
    assert.equal(g.successors("a").length, 1);
    const timelines = allTimelines(g, "b");
    assert.ok(timelines.length >= 1);
    for (const t of timelines)
      assert.equal(new Set(t.map((s) => s.id)).size, t.length, "no memory twice in a timeline");
    assert.ok(sampleTimeline(g, "b", seededRandom(1)).length <= 3);
  });

  it("stays bounded on a component of thousands of memories", () => {
    // A ladder: each node links to the next two, so paths explode combinatorially.
    const n = 3000;
    const nodes = Array.from({ length: n }, (_, i) => ({
      id: `m${i}`,
      time: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    }));
    const edges: GraphEdge[] = [];
    for (let i = 0; i < n; i++) for (const d of [1, 2]) if (i + d < n) edges.push(edge(`m${i}`, `m${i + d}`));
    const g = new MemoryGraph(nodes, edges);
    const started = performance.now();
    const all = allTimelines(g, "m1500", 50, 100);
    assert.ok(all.length <= 50 && all.every((t) => t.length <= 100));
    const near = allTimelines(g, "m10", 50, 100);
    assert.equal(near.length, 50);
    const one = sampleTimeline(g, "m1500", seededRandom(5), 5000);
    assert.ok(
      one.some((s) => s.id === "m1500"),
      "the sampled timeline passes through the memory",
    );
    assert.ok(one.length <= 3000);
    assert.ok(performance.now() - started < 5000);
  });
});

describe("componentGroups, and graphs built in slices", () => {
  it("groups ids exactly as whole components do, on random graphs and overlays", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(seed);
      const n = 5 + Math.floor(random() * 60);
      const nodes = Array.from({ length: n }, (_, i) => node(`m${i}`, 1 + (i % 28)));
      const edges = Array.from({ length: Math.floor(random() * n * 1.2) }, () =>
        edge(`m${Math.floor(random() * n)}`, `m${Math.floor(random() * n)}`),
      );
      const graph = new MemoryGraph(nodes, edges);
      const asked = Array.from(
        { length: 1 + Math.floor(random() * 6) },
        () => `m${Math.floor(random() * (n + 3))}`,
      );
      const whole = wholeComponents(
        nodes.map((x) => x.id),
        edges,
      );
      const groups = componentGroups(graph, asked);
      for (const a of asked)
        for (const b of asked)
          assert.equal(
            groups.has(a) && groups.has(b) && groups.get(a) === groups.get(b),
            whole.has(a) && whole.has(b) && whole.get(a) === whole.get(b),
            `seed ${seed}: ${a} and ${b}`,
          );
      // An overlay answers as the graph it stands for: the stored one with the added links.
      const overlay = new GraphOverlay(graph);
      overlay.addNode(node("fresh", 28));
      const extra = [edge(`m${Math.floor(random() * n)}`, "fresh", "Link"), edge("m0", `m${n - 1}`, "Link")];
      for (const e of extra) overlay.addEdge(e);
      const plain = new MemoryGraph([...nodes, node("fresh", 28)], [...edges, ...extra]);
      for (const apart of ["fresh", "m1"])
        assert.deepEqual(
          linkTargets(overlay, asked, apart),
          linkTargets(plain, asked, apart),
          `seed ${seed}`,
        );
    }
  });

  it("builds in slices the same graph the constructor builds", async () => {
    const random = seededRandom(9);
    const nodes = Array.from({ length: 3000 }, (_, i) => node(`m${i}`, 1 + (i % 28)));
    const edges = Array.from({ length: 4000 }, () =>
      edge(`m${Math.floor(random() * 3100)}`, `m${Math.floor(random() * 3000)}`),
    );
    const [a, b] = [new MemoryGraph(nodes, edges), await MemoryGraph.inSlices(nodes, edges)];
    assert.deepEqual([...b.nodes.values()], [...a.nodes.values()]);
    for (const { id } of nodes) {
      assert.deepEqual(b.successors(id), a.successors(id));
      assert.deepEqual(b.predecessors(id), a.predecessors(id));
    }
  });
});

/** Every node's component number, by a plain walk of the whole graph: the reference answer. */
function wholeComponents(ids: string[], edges: GraphEdge[]): Map<string, number> {
  const known = new Set(ids);
  const next = new Map<string, string[]>();
  for (const e of edges)
    if (known.has(e.from) && known.has(e.to)) {
      next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
      next.set(e.to, [...(next.get(e.to) ?? []), e.from]);
    }
  const index = new Map<string, number>();
  let n = 0;
  for (const id of ids) {
    if (index.has(id)) continue;
    n++;
    const stack = [id];
    index.set(id, n);
    while (stack.length)
      for (const other of next.get(stack.pop()!) ?? [])
        if (!index.has(other)) {
          index.set(other, n);
          stack.push(other);
        }
  }
  return index;
}
