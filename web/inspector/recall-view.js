// The recall playground: a query through the API's recall route, and each hit with a bar per
// ranking signal. Signals have different scales, so each bar is drawn against the highest value
// of that signal among the hits, with the value itself written beside it.
import { api } from "./api.js";
import { badge, el, fill, when } from "./dom.js";

export function recallView(context) {
  const form = document.querySelector("#recall-form");
  const hits = document.querySelector("#recall-hits");
  const meta = document.querySelector("#recall-meta");
  const timelines = document.querySelector("#recall-timelines");
  const timelinesTitle = document.querySelector("#recall-timelines-title");

  const view = {
    reset() {
      fill(
        form.elements.about,
        el("option", { value: "" }, "the whole agent"),
        context.subjects().map((s) => el("option", { value: s }, s)),
      );
      // The agent's own strategy by default: another one searches memories it did not write.
      const strategies = context.summary?.strategies ?? [];
      fill(
        form.elements.strategy,
        strategies.map((name) => el("option", { value: name }, name)),
        el("option", { value: "" }, "the server's default"),
      );
      form.elements.strategy.value = strategies.at(-1) ?? "";
      fill(hits);
      fill(timelines);
      timelinesTitle.hidden = true;
      meta.textContent = "";
    },
    async load() {},
    async run() {
      const body = {
        agent: context.agent,
        query: form.elements.query.value,
        units: form.elements.units.value,
        k: Number(form.elements.k.value) || 5,
      };
      // For one partner: what they may hear. Otherwise the agent's whole memory, where every
      // partner's private memories stay out.
      if (form.elements.about.value) body.about = form.elements.about.value;
      else body.scope = "agent";
      if (form.elements.strategy.value && body.units === "memories")
        body.strategy = form.elements.strategy.value;
      // The turns the memories missed, after them (memories only: a turn recall is all turns).
      const turns = Number(form.elements.turns.value) || 0;
      if (turns > 0 && body.units === "memories") body.turns = turns;
      const recall = await api("/recall", { method: "POST", body });
      meta.textContent = `${recall.hits.length} hit${recall.hits.length === 1 ? "" : "s"} · strategy ${recall.strategy}${
        recall.temporal ? ` · asks about the ${recall.temporal === "past" ? "past" : "present (still)"}` : ""
      }`;
      const best = {};
      for (const hit of recall.hits)
        for (const [signal, value] of Object.entries(hit.explanation))
          best[signal] = Math.max(best[signal] ?? 0, Math.abs(value));
      fill(
        hits,
        recall.hits.map((hit) =>
          el(
            "li",
            { class: "hit" },
            el(
              "div",
              { class: "hit-head" },
              hit.status ? badge(hit.status) : null,
              hit.kind === "turn" && body.units === "memories" ? badge("turn") : null,
              hit.kind === "memory"
                ? el(
                    "button",
                    { type: "button", class: "link", onclick: () => context.openMemory(hit.id) },
                    hit.text,
                  )
                : el("span", {}, hit.text),
              el(
                "span",
                { class: "muted" },
                ` ${hit.about} · ${when(hit.observedAt)} · score ${hit.score.toFixed(3)}`,
              ),
            ),
            el(
              "dl",
              { class: "bars" },
              Object.entries(hit.explanation).flatMap(([signal, value]) => [
                el("dt", {}, signal),
                el(
                  "dd",
                  {},
                  el(
                    "span",
                    { class: "track" },
                    el("span", {
                      class: `bar${signal === "score" ? " bar-score" : ""}`,
                      dataset: { signal, value: String(value) },
                      style: { width: `${best[signal] ? (100 * Math.abs(value)) / best[signal] : 0}%` },
                    }),
                  ),
                  el("span", { class: "value" }, value.toFixed(3)),
                ),
              ]),
            ),
          ),
        ),
      );
      timelinesTitle.hidden = !recall.timelines?.length;
      // Theanine recalls a timeline through each top memory: how it developed, and the refined
      // version for the conversation when there is one.
      fill(
        timelines,
        (recall.timelines ?? []).map((t) =>
          el(
            "li",
            { class: "recall-timeline" },
            el(
              "ol",
              { class: "timeline" },
              t.entries.map((entry) =>
                el(
                  "li",
                  { class: entry.id === t.through ? "this" : "" },
                  entry.relation ? el("span", { class: "relation" }, entry.relation) : null,
                  " ",
                  entry.text,
                  el("span", { class: "muted" }, ` ${when(entry.at)}`),
                ),
              ),
            ),
            t.refined?.length ? el("p", { class: "muted" }, `refined: ${t.refined.join(" ")}`) : null,
          ),
        ),
      );
    },
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    view.run().catch(context.fail);
  });
  return view;
}
