// The operation log, newest first, and the failed work waiting for a retry, with a button that
// runs it again through the API's retry route (the same as `memlane retry`).
import { api, seg } from "./api.js";
import { badge, el, fill, when } from "./dom.js";
import { operationItem } from "./memory-detail.js";

export function operationsView(context) {
  const failures = document.querySelector("#failures");
  const log = document.querySelector("#operation-log");
  const count = document.querySelector("#log-count");
  const statusFilter = document.querySelector("#log-status");

  async function retry(sessionId, button) {
    button.disabled = true;
    try {
      const report = await api(`/agents/${seg(context.agent)}/retry`, {
        method: "POST",
        body: sessionId ? { sessionId } : {},
      });
      const failed =
        report.jobs.filter((j) => j.state === "failed").length + report.turns.filter((t) => !t.ok).length;
      const ran = report.jobs.length + report.turns.length;
      context.status(
        `Retried ${ran} piece${ran === 1 ? "" : "s"} of work: ${ran - failed} succeeded, ${failed} failed again.`,
        failed ? "error" : "info",
      );
      await context.changed();
      await view.load();
    } finally {
      button.disabled = false;
    }
  }

  const view = {
    async load() {
      const agent = seg(context.agent);
      const query = statusFilter.value ? `?status=${statusFilter.value}` : "";
      const [waiting, { operations }] = await Promise.all([
        api(`/agents/${agent}/failures`),
        api(`/agents/${agent}/operations${query}`),
      ]);
      fill(
        failures,
        waiting.failures.length
          ? [
              el(
                "ul",
                { class: "failures" },
                waiting.failures.map((op) =>
                  el(
                    "li",
                    { class: "failure", dataset: { id: op.id } },
                    el("div", { class: "op-head" }, el("strong", {}, op.type), badge(op.status)),
                    el("span", { class: "muted" }, `${when(op.at)} · session ${op.sessionId ?? "none"}`),
                    el("p", { class: "error" }, op.error ?? "failed"),
                    el(
                      "button",
                      {
                        type: "button",
                        class: "retry",
                        onclick: (event) => retry(op.sessionId, event.currentTarget).catch(context.fail),
                      },
                      op.sessionId ? `Retry session ${op.sessionId}` : "Retry",
                    ),
                  ),
                ),
              ),
              el(
                "button",
                { type: "button", onclick: (event) => retry(null, event.currentTarget).catch(context.fail) },
                "Retry everything",
              ),
            ]
          : el(
              "p",
              { class: "muted", id: "no-failures" },
              "Nothing is waiting: every consolidation and per-turn step succeeded.",
            ),
      );
      count.textContent = `${operations.length} operation${operations.length === 1 ? "" : "s"} (newest first)`;
      fill(
        log,
        operations.map((op) => {
          const item = operationItem(op, null);
          const head = item.querySelector(".op-head");
          if (op.sessionId) head.append(el("span", { class: "muted" }, `session ${op.sessionId}`));
          // The memories it read or wrote, each a link to its history (a forgotten one answers 404).
          op.memoryIds.forEach((id, i) => {
            head.append(
              el(
                "button",
                {
                  type: "button",
                  class: "link memory-link",
                  title: id,
                  onclick: () => context.openMemory(id),
                },
                `memory ${i + 1}`,
              ),
            );
          });
          return item;
        }),
      );
    },
  };
  statusFilter.addEventListener("change", () => view.load().catch(context.fail));
  return view;
}
