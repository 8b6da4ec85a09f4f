// The inspector's entry point: the key form, the agents and partners in the sidebar, and the four
// views (memories, graph, operations, recall), each loaded for the chosen agent when shown.
import { api, forgetKey, seg, storedKey, storeKey } from "./api.js";
import { el, fill } from "./dom.js";
import { graphView } from "./graph-view.js";
import { memoriesView } from "./memories-view.js";
import { operationsView } from "./operations-view.js";
import { recallView } from "./recall-view.js";

const $ = (selector) => document.querySelector(selector);

/** What every view shares: the chosen agent, its summary, messages, and moving between views. */
const context = {
  agent: null,
  summary: null,
  /** The agent's graph (memories and edges) as `{ agent, data }`, fetched once per agent and change. */
  graphData: null,
  status(message, kind = "info") {
    const status = $("#status");
    status.textContent = message;
    status.dataset.kind = kind;
  },
  fail(error) {
    context.status(`${error.code ? `${error.code}: ` : ""}${error.message}`, "error");
  },
  graph() {
    const agent = context.agent;
    if (context.graphData?.agent !== agent) {
      const data = api(`/agents/${seg(agent)}/graph`);
      // A failed read is not kept: the next view asks again.
      data.catch(() => {
        if (context.graphData?.data === data) context.graphData = null;
      });
      context.graphData = { agent, data };
    }
    return context.graphData.data;
  },
  /** After a write (a retry): forgets cached reads and counts the agent's rows again. */
  async changed() {
    context.graphData = null;
    await showSummary();
  },
  /** After a correction: reads the lists and counts again and shows the memory current now. */
  async corrected(id) {
    await context.changed();
    await views.memories.load();
    await views.memories.open(id);
  },
  /** Subjects the agent's memories can be about: the agent itself and its partners. */
  subjects() {
    return context.agent ? [context.agent, ...(context.summary?.partners ?? [])] : [];
  },
  showView(name) {
    for (const tab of document.querySelectorAll("[role=tab]"))
      tab.setAttribute("aria-selected", String(tab.dataset.view === name));
    for (const [key, view] of Object.entries(views)) {
      $(`#view-${key}`).hidden = key !== name;
      if (key === name && context.agent) view.load().catch(context.fail);
    }
  },
  openMemory(id) {
    context.showView("memories");
    views.memories.open(id).catch(context.fail);
  },
};

const views = {
  memories: memoriesView(context),
  graph: graphView(context),
  operations: operationsView(context),
  recall: recallView(context),
};

const currentView = () => document.querySelector("[role=tab][aria-selected=true]").dataset.view;

async function chooseAgent(agent) {
  context.agent = agent;
  context.graphData = null;
  for (const item of document.querySelectorAll("#agents button"))
    item.setAttribute("aria-current", String(item.dataset.agent === agent));
  await showSummary();
  for (const view of Object.values(views)) view.reset?.();
  context.showView(currentView());
}

/** The chosen agent's partners and counts, in the sidebar. */
async function showSummary() {
  context.summary = await api(`/agents/${seg(context.agent)}`);
  const s = context.summary;
  fill(
    $("#partners"),
    s.partners.length
      ? s.partners.map((p) =>
          el("li", {}, el("button", { type: "button", onclick: () => views.memories.about(p) }, p)),
        )
      : el("li", { class: "muted" }, "none yet"),
  );
  const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
  const failed = Object.entries(s.operations)
    .filter(([key]) => key.endsWith(":failed"))
    .reduce((a, [, n]) => a + n, 0);
  const rows = [
    ["sessions", sum(s.sessions)],
    ["turns", s.turns],
    ["memories", sum(s.memories)],
    ["active", s.memories.active ?? 0],
    ["superseded", s.memories.superseded ?? 0],
    ["edges", s.edges],
    ["operations", sum(s.operations)],
    ["failed operations", failed],
    ["waiting for retry", s.failures],
  ];
  fill(
    $("#agent-summary"),
    rows.flatMap(([name, n]) => [el("dt", {}, name), el("dd", { dataset: { count: name } }, String(n))]),
  );
}

async function connect() {
  if (!storedKey()) {
    context.status("Enter an API key (memlane keys create --tenant T) to read that tenant's memory.");
    return;
  }
  try {
    const { agents } = await api("/agents");
    context.status(`${agents.length} agent${agents.length === 1 ? "" : "s"} in this key's tenant.`);
    fill(
      $("#agents"),
      agents.length
        ? agents.map((a) =>
            el(
              "li",
              {},
              el(
                "button",
                { type: "button", dataset: { agent: a }, onclick: () => chooseAgent(a).catch(context.fail) },
                a,
              ),
            ),
          )
        : el("li", { class: "muted" }, "no agents yet"),
    );
    if (agents.length)
      await chooseAgent(context.agent && agents.includes(context.agent) ? context.agent : agents[0]);
  } catch (error) {
    fill($("#agents"));
    context.fail(error);
  }
}

$("#key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  storeKey($("#key").value.trim());
  $("#key").value = "";
  connect();
});
$("#sign-out").addEventListener("click", () => {
  forgetKey();
  location.reload();
});
for (const tab of document.querySelectorAll("[role=tab]"))
  tab.addEventListener("click", () => context.showView(tab.dataset.view));

connect();
