// One memory in full: its versions (the supersession chain), its timeline (linked memories and
// the chain through it), the caller's corrections and every operation that touched it, with the
// rationale. An active memory can be edited (a corrected version supersedes it) and a superseded
// one restored (it is current again and what replaced it retires): both through the REST API.
import { api, seg } from "./api.js";
import { badge, el, fill, jsonDetails, when } from "./dom.js";
import { versionsOf } from "./versions.js";

/**
 * A batch of decisions (CareCall's CLASSIFY keeps one per pair: label, the statement, why) as a
 * list, so each pair's rationale reads without opening the JSON.
 */
function decisionList(op, memoryId) {
  const decisions = op.outputs?.decisions;
  if (!Array.isArray(decisions) || decisions.length === 0) return null;
  return el(
    "ul",
    { class: "decisions" },
    decisions.map((d) =>
      el(
        "li",
        { class: d.memory === memoryId ? "this" : "" },
        d.label ? badge(d.label) : null,
        String(d.summary ?? d.text ?? ""),
        d.why ? el("span", { class: "muted" }, ` — ${d.why}`) : null,
      ),
    ),
  );
}

function operationItem(op, memoryId) {
  return el(
    "li",
    { class: `operation op-${op.status}` },
    el(
      "div",
      { class: "op-head" },
      el("strong", {}, op.type),
      badge(op.status),
      el("span", { class: "muted" }, `${when(op.at)} · ${op.model} · ${op.strategy}`),
    ),
    op.rationale
      ? el("p", { class: "rationale" }, op.rationale)
      : (decisionList(op, memoryId) ?? el("p", { class: "muted" }, "no rationale recorded")),
    op.error ? el("p", { class: "error" }, op.error) : null,
    jsonDetails("inputs", op.inputs),
    jsonDetails("outputs", op.outputs),
  );
}

/**
 * The edit button of an active memory and its form, or the restore button of a superseded one.
 * After either, the lists and counts are read again and the memory that is now current is shown.
 */
function correctionControls(context, memory) {
  const path = `/agents/${seg(context.agent)}/memories/${seg(memory.id)}`;
  if (memory.status === "superseded")
    return el(
      "div",
      { class: "corrections-actions" },
      el(
        "button",
        {
          type: "button",
          class: "restore",
          title: "make this version current again; what replaced it becomes past",
          onclick: async (event) => {
            event.currentTarget.disabled = true;
            try {
              const result = await api(`${path}/restore`, { method: "POST" });
              const retired = result.retired.length ? `, ${result.retired.length} retired` : "";
              context.status(`Restored: “${result.memory.text}” is current again${retired}.`);
              await context.corrected(result.memory.id);
            } catch (error) {
              context.fail(error);
              event.currentTarget.disabled = false;
            }
          },
        },
        "Restore",
      ),
    );
  if (memory.status !== "active") return null;
  const text = el("textarea", { name: "text", rows: "3", required: true, "aria-label": "corrected text" });
  text.value = memory.text;
  const form = el(
    "form",
    { id: "edit-memory", class: "edit-memory", hidden: true },
    text,
    el(
      "div",
      { class: "edit-buttons" },
      el("button", { type: "submit", class: "save" }, "Save correction"),
      el("button", { type: "button", class: "quiet", onclick: () => (form.hidden = true) }, "Cancel"),
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const save = form.querySelector("button.save");
    save.disabled = true;
    try {
      const result = await api(path, { method: "PATCH", body: { text: text.value } });
      context.status(`Updated: the corrected version is current; “${result.superseded.text}” is its past.`);
      await context.corrected(result.memory.id);
    } catch (error) {
      context.fail(error);
      save.disabled = false;
    }
  });
  return el(
    "div",
    { class: "corrections-actions" },
    el(
      "button",
      {
        type: "button",
        class: "edit",
        title: "correct this memory: the new text becomes its current version, this one its past",
        onclick: () => {
          form.hidden = false;
          text.focus();
        },
      },
      "Edit",
    ),
    form,
  );
}

/** Renders memory `id` of the context's agent into `container`. */
export async function showMemory(context, container, id) {
  const agent = seg(context.agent);
  const [history, timeline, graph] = await Promise.all([
    api(`/agents/${agent}/memories/${seg(id)}/history`),
    api(`/agents/${agent}/memories/${seg(id)}/timeline`),
    context.graph(),
  ]);
  const m = history.memory;
  const versions = versionsOf(graph, id);
  const openButton = (memory, label) =>
    el("button", { type: "button", class: "link", onclick: () => context.openMemory(memory.id) }, label);

  fill(
    container,
    el("h2", {}, m.text),
    el(
      "p",
      { class: "facts" },
      badge(m.status),
      ` about ${m.about} · ${m.kind} · ${m.strategy} · observed ${when(m.observedAt)}`,
      m.invalidAt ? ` · until ${when(m.invalidAt)}` : "",
      m.sessionId ? ` · session ${m.sessionId}` : "",
    ),
    correctionControls(context, m),
    el("h3", {}, `Versions (${versions.length})`),
    el(
      "ol",
      { id: "versions", class: "versions" },
      versions.map((v) =>
        el(
          "li",
          { class: v.id === id ? "this" : "", dataset: { id: v.id } },
          badge(v.status),
          " ",
          v.id === id ? el("strong", {}, v.text) : openButton(v, v.text),
          el(
            "span",
            { class: "muted" },
            ` ${when(v.observedAt)}${v.invalidAt ? ` → ${when(v.invalidAt)}` : ""}`,
          ),
        ),
      ),
    ),
    el("h3", {}, `Timeline (${timeline.chain.length})`),
    timeline.chain.length
      ? el(
          "ol",
          { id: "timeline", class: "timeline" },
          timeline.chain.map((entry) =>
            el(
              "li",
              { class: entry.id === id ? "this" : "" },
              entry.relation ? el("span", { class: "relation" }, entry.relation) : null,
              " ",
              entry.text,
              el("span", { class: "muted" }, ` ${when(entry.at)}`),
            ),
          ),
        )
      : el("p", { class: "muted" }, "not linked to other memories"),
    history.corrections?.length
      ? [
          el("h3", {}, `Corrections (${history.corrections.length})`),
          el(
            "ul",
            { id: "corrections", class: "corrections" },
            history.corrections.map((c) => el("li", { dataset: { type: c.type } }, c.text)),
          ),
        ]
      : null,
    el("h3", {}, `Operations (${history.operations.length})`),
    el(
      "ol",
      { id: "memory-operations", class: "log" },
      history.operations.map((op) => operationItem(op, id)),
    ),
  );
}

export { operationItem };
