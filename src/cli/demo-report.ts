/** The demo's HTML report: each session's turns and memory changes, then the questions asked. */
import { formatDay } from "../core/time.js";
import type { Memory, Turn } from "../core/types.js";

export interface DemoSessionView {
  id: string;
  at: string;
  turns: Turn[];
  added: Memory[];
  superseded: { old: Memory; by: Memory[] }[];
}

export interface DemoQuestionView {
  question: string;
  reply: string;
  /** Set when recall read the question as one about history. */
  temporal?: "past" | "still";
  hits: {
    text: string;
    score: number;
    observedAt: string;
    status?: "current" | "past";
    /** For a past version: when it stopped being current. */
    invalidAt?: string;
  }[];
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export function demoReport(
  title: string,
  strategy: string,
  sessions: DemoSessionView[],
  questions: DemoQuestionView[],
  elapsedMs: number,
  history: DemoQuestionView[] = [],
): string {
  const sessionHtml = sessions
    .map(
      (s) => `<section><h2>${esc(s.id)} · ${formatDay(s.at)}</h2>
<div class="cols"><div><h3>Conversation</h3>${s.turns.map((t) => `<p><b>${esc(t.speaker)}</b>: ${esc(t.text)}</p>`).join("")}</div>
<div><h3>Memory changes</h3>
${s.added.map((m) => `<p class="add">+ [${esc(m.about)}] ${esc(m.text)}</p>`).join("") || "<p>(nothing new)</p>"}
${s.superseded.map((x) => `<p class="old">− ${esc(x.old.text)}<br><small>${x.by.some((b) => b.attributes.retired) ? "closed (DELETE) by" : "replaced by"}: ${x.by.map((b) => esc(b.text)).join("; ") || "(retired)"}</small></p>`).join("")}
</div></div></section>`,
    )
    .join("\n");
  const mark = (h: DemoQuestionView["hits"][number]) =>
    h.status === "past"
      ? `<b class="past">past</b> ${formatDay(h.observedAt)}${h.invalidAt ? ` – ${formatDay(h.invalidAt)}` : ""}`
      : h.status === "current"
        ? `<b class="current">current</b> since ${formatDay(h.observedAt)}`
        : formatDay(h.observedAt);
  const qa = (list: DemoQuestionView[]) =>
    list
      .map(
        (
          q,
        ) => `<section><h3>${esc(q.question)}</h3><p class="reply">${esc(q.reply).replace(/\n/g, "<br>")}</p>
<ol>${q.hits.map((h) => `<li>${esc(h.text)} <small>(${mark(h)}, score ${h.score.toFixed(3)})</small></li>`).join("")}</ol></section>`,
      )
      .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em}.cols{display:grid;grid-template-columns:1fr 1fr;gap:2em}
.add{color:#176f2c}.old{color:#8a5a00;text-decoration:line-through}.old small{text-decoration:none;display:inline-block}
.reply{background:#f4f6fa;padding:.6em 1em;border-radius:6px}small{color:#666}
.past{color:#8a5a00}.current{color:#176f2c}
</style></head><body><h1>${esc(title)}</h1>
<p>Strategy <b>${esc(strategy)}</b>, offline cognition, generated in ${(elapsedMs / 1000).toFixed(1)} s.</p>
${sessionHtml}
<h2>Questions in a new session</h2>
${qa(questions)}
${history.length ? `<h2>Questions about the past</h2>\n${qa(history)}` : ""}
</body></html>`;
}
