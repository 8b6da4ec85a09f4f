// The memory graph, drawn with cytoscape (served from the server's own node_modules, no CDN):
// memories are nodes, coloured by status; edges are Theanine relations, EMMA links,
// supersessions and fusions, each kind in its own colour. Clicking a memory opens it.
// cytoscape is an optional package of the server: loaded when the graph is first drawn, so
// without it the rest of the page works and the graph says what to install.

import { el, fill } from "./dom.js";

let cytoscapeLoad = null;
/** cytoscape's module, or null when the server has no cytoscape to serve. */
function loadCytoscape() {
  cytoscapeLoad ??= import("./vendor/cytoscape.mjs").then(
    (m) => m.default,
    () => null,
  );
  return cytoscapeLoad;
}

/** Edge kinds as the legend shows them; every Theanine relation shares one colour. */
const KINDS = [
  { name: "supersedes", color: "#d9822b", types: ["Supersedes"], style: "dashed" },
  { name: "fused into", color: "#8e44ad", types: ["FusedInto"], style: "dashed" },
  { name: "EMMA link", color: "#2d7dd2", types: ["Link"], style: "solid" },
  {
    name: "Theanine relation",
    color: "#2a9d8f",
    types: ["Changed", "Cause", "Reason", "HinderedBy", "React", "Want", "SameTopic"],
    style: "solid",
  },
];
const kindOf = (type) =>
  KINDS.find((k) => k.types.includes(type)) ?? { name: type, color: "#666", style: "solid" };
const STATUS_COLORS = { active: "#1f6f8b", superseded: "#aab2bd", forgotten: "#e76f51" };

const short = (text) => (text.length > 70 ? `${text.slice(0, 67)}…` : text);

const COLUMN = 250;
const ROW = 64;

/**
 * Positions by conversation time: one column per time a memory was observed (a session), oldest
 * on the left, so relations and links (older → newer) read left to right and a supersession
 * points back to what it replaced. A date label heads each column.
 */
function byTime(memories) {
  const times = [...new Set(memories.map((m) => m.observedAt))].sort();
  const rows = new Map(times.map((t) => [t, 0]));
  const positions = new Map();
  for (const m of [...memories].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt))) {
    const row = rows.get(m.observedAt);
    rows.set(m.observedAt, row + 1);
    positions.set(m.id, { x: times.indexOf(m.observedAt) * COLUMN, y: (row + 1) * ROW });
  }
  const headers = times.map((t, i) => ({
    data: { id: `time:${t}`, label: t.slice(0, 10) },
    classes: "time",
    position: { x: i * COLUMN, y: 0 },
    selectable: false,
    grabbable: false,
  }));
  return { positions, headers };
}

const STYLE = [
  {
    selector: "node",
    style: {
      "background-color": "data(color)",
      label: "data(label)",
      "font-size": 10,
      color: "#1d2330",
      "text-wrap": "wrap",
      "text-max-width": 200,
      "text-valign": "bottom",
      "text-margin-y": 3,
      width: 14,
      height: 14,
    },
  },
  {
    selector: "node.time",
    style: {
      "background-opacity": 0,
      "font-size": 12,
      "font-weight": "bold",
      color: "#6b7385",
      "text-valign": "center",
    },
  },
  {
    selector: "edge",
    style: {
      width: 1.5,
      "line-color": "data(color)",
      "line-style": "data(line)",
      "target-arrow-color": "data(color)",
      "target-arrow-shape": "triangle",
      "curve-style": "unbundled-bezier",
      "control-point-distances": [30],
      label: "data(label)",
      "font-size": 9,
      color: "#555",
      "text-rotation": "autorotate",
      "text-background-color": "#fff",
      "text-background-opacity": 0.85,
    },
  },
  { selector: "node:selected", style: { "border-width": 3, "border-color": "#f4a261" } },
];

export function graphView(context) {
  const container = document.querySelector("#graph");
  const caption = document.querySelector("#graph-caption");
  const legend = document.querySelector("#graph-legend");
  const statusFilter = document.querySelector("#graph-status");
  const layoutChoice = document.querySelector("#graph-layout");
  let cy = null;

  fill(
    legend,
    Object.entries(STATUS_COLORS).map(([status, color]) =>
      el("li", {}, el("span", { class: "swatch node", style: { background: color } }), `${status} memory`),
    ),
    KINDS.map((k) =>
      el("li", {}, el("span", { class: `swatch edge ${k.style}`, style: { borderColor: k.color } }), k.name),
    ),
  );

  const view = {
    reset() {
      cy?.destroy();
      cy = null;
    },
    async load() {
      const agent = context.agent;
      const cytoscape = await loadCytoscape();
      if (!cytoscape) {
        caption.textContent =
          "The graph view needs the cytoscape package on the server: npm install cytoscape, then restart memlane serve.";
        return;
      }
      const graph = await context.graph();
      // Another agent was chosen meanwhile: its own load draws the graph.
      if (agent !== context.agent) return;
      let shown =
        statusFilter.value === "active"
          ? graph.memories.filter((m) => m.status === "active")
          : graph.memories;
      let ids = new Set(shown.map((m) => m.id));
      const edges = graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
      if (statusFilter.value === "linked") {
        ids = new Set(edges.flatMap((e) => [e.from, e.to]));
        shown = shown.filter((m) => ids.has(m.id));
      }
      const byType = {};
      for (const e of edges) byType[e.type] = (byType[e.type] ?? 0) + 1;
      caption.dataset.agent = agent;
      caption.dataset.nodes = String(shown.length);
      caption.dataset.edges = String(edges.length);
      caption.textContent = `${shown.length} memories · ${edges.length} edges${
        edges.length
          ? ` (${Object.entries(byType)
              .map(([t, n]) => `${t} ${n}`)
              .join(", ")})`
          : ""
      }`;

      const timed = layoutChoice.value === "time";
      const { positions, headers } = timed ? byTime(shown) : { positions: new Map(), headers: [] };
      cy?.destroy();
      cy = cytoscape({
        container,
        elements: [
          ...headers,
          ...shown.map((m) => ({
            data: { id: m.id, label: short(m.text), color: STATUS_COLORS[m.status] ?? "#666" },
            position: positions.get(m.id),
          })),
          ...edges.map((e) => {
            const kind = kindOf(e.type);
            return {
              data: {
                id: e.id,
                source: e.from,
                target: e.to,
                label: e.type,
                color: kind.color,
                line: kind.style,
              },
            };
          }),
        ],
        style: STYLE,
        // By time: the positions above. Force-directed: labels count in each node's size, so
        // that they overlap less.
        layout: timed
          ? { name: "preset", padding: 24 }
          : {
              name: "cose",
              animate: false,
              nodeDimensionsIncludeLabels: true,
              padding: 24,
              // Laid out in the panel's own shape: left free, cose stacked the groups of a
              // scope into one tall, narrow column.
              boundingBox: { x1: 0, y1: 0, w: container.clientWidth, h: container.clientHeight },
            },
        maxZoom: 2,
      });
      // The drawn extent, for a reader of the page (and the browser test): a force layout that
      // came out as a narrow column is visible in it.
      const extent = cy.nodes().boundingBox();
      caption.dataset.layout = timed ? "time" : "force";
      caption.dataset.spreadWidth = String(Math.round(extent.w));
      caption.dataset.spreadHeight = String(Math.round(extent.h));
      cy.on("tap", "node", (event) => {
        if (!event.target.hasClass("time")) context.openMemory(event.target.id());
      });
    },
  };
  statusFilter.addEventListener("change", () => view.load().catch(context.fail));
  layoutChoice.addEventListener("change", () => view.load().catch(context.fail));
  return view;
}
