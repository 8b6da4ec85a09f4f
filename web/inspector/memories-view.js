// The memory list with its status and subject filters; choosing a row opens it in the detail pane.
import { api, seg } from "./api.js";
import { badge, el, fill, when } from "./dom.js";
import { showMemory } from "./memory-detail.js";

export function memoriesView(context) {
  const form = document.querySelector("#memory-filters");
  const body = document.querySelector("#memory-table tbody");
  const detail = document.querySelector("#memory-detail");
  const count = document.querySelector("#memory-count");
  let chosen = null;

  const view = {
    /** A new agent: its subjects in the filter, nothing chosen. */
    reset() {
      chosen = null;
      fill(
        form.elements.about,
        el("option", { value: "" }, "anyone"),
        context.subjects().map((s) => el("option", { value: s }, s)),
      );
      fill(
        detail,
        el("p", { class: "muted" }, "Choose a memory to see its versions, timeline and operations."),
      );
    },
    async load() {
      const query = new URLSearchParams({ status: form.elements.status.value });
      if (form.elements.about.value) query.set("about", form.elements.about.value);
      query.set("limit", "1000");
      const agent = context.agent;
      // Every page, following the cursors: the list shows the agent's whole memory.
      const memories = [];
      for (let cursor = null; ; ) {
        if (cursor) query.set("cursor", cursor);
        const page = await api(`/agents/${seg(agent)}/memories?${query}`);
        memories.push(...page.memories);
        cursor = page.nextCursor;
        if (!cursor || agent !== context.agent) break;
      }
      if (agent !== context.agent) return; // another agent was chosen meanwhile
      count.textContent = `${memories.length} memor${memories.length === 1 ? "y" : "ies"}`;
      fill(
        body,
        memories.map((m) =>
          el(
            "tr",
            { dataset: { id: m.id }, class: m.id === chosen ? "chosen" : "" },
            el(
              "td",
              {},
              el("button", { type: "button", class: "link", onclick: () => view.open(m.id) }, m.text),
            ),
            el("td", {}, m.about),
            el("td", {}, badge(m.status)),
            el("td", { class: "nowrap" }, when(m.observedAt)),
          ),
        ),
      );
    },
    /** Shows the memories about one subject. */
    about(subject) {
      form.elements.about.value = subject;
      context.showView("memories");
    },
    async open(id) {
      chosen = id;
      for (const row of body.rows) row.classList.toggle("chosen", row.dataset.id === id);
      await showMemory(context, detail, id);
    },
  };
  form.addEventListener("change", () => view.load().catch(context.fail));
  return view;
}
