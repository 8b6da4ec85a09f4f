/** Text renderings of memories, hits, histories and timelines for the terminal. */
import type { Recall } from "../core/recall.js";
import { formatDay } from "../core/time.js";
import type { Memory, Operation } from "../core/types.js";
import type { HistoryView } from "../engine/memlane.js";
import type { TimelineView } from "../engine/timeline.js";
import { color, shown } from "./output.js";

export { shown };

export function memoryLine(m: Memory): string {
  const status = m.status === "active" ? color.green("active") : color.yellow(m.status);
  return `${color.dim(m.id)} ${status} ${color.cyan(formatDay(m.observedAt))} [${shown(m.about)}] ${shown(m.text)}`;
}

export function recallText(recall: Recall): string {
  if (recall.hits.length === 0) return color.dim("(nothing recalled)");
  return recall.hits
    .map((h, i) => {
      const signals = Object.entries(h.explanation)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ");
      return `${i + 1}. ${shown(h.text)}\n   ${color.dim(`${h.kind} ${h.id} · ${shown(h.about)} · ${formatDay(h.observedAt)} · ${signals}`)}`;
    })
    .join("\n");
}

export function operationLine(o: Operation): string {
  const status = o.status === "done" ? "" : color.red(` ${o.status}`);
  const usage = o.usage.calls
    ? color.dim(` (${o.usage.calls} call, ${o.usage.promptTokens}+${o.usage.completionTokens} tokens)`)
    : "";
  return `${color.cyan(formatDay(o.at))} ${o.type}${status} by ${o.strategy}/${o.model}${usage}${o.rationale ? ` — ${shown(o.rationale)}` : ""}${o.error ? ` — ${shown(o.error)}` : ""}`;
}

export function historyText(h: HistoryView): string {
  const lines = [memoryLine(h.memory)];
  if (h.memory.invalidAt) lines.push(`  no longer current from ${formatDay(h.memory.invalidAt)}`);
  lines.push(`  source turns: ${shown(h.memory.sourceTurns.join(", ")) || "none"}`);
  if (h.replaces.length) lines.push("  replaced:", ...h.replaces.map((m) => `    ${memoryLine(m)}`));
  if (h.replacedBy.length) lines.push("  replaced by:", ...h.replacedBy.map((m) => `    ${memoryLine(m)}`));
  lines.push(
    "  operations:",
    ...(h.operations.length ? h.operations.map((o) => `    ${operationLine(o)}`) : ["    none"]),
  );
  return lines.join("\n");
}

export function timelineText(t: TimelineView): string {
  const lines = t.chain.map((e, i) => {
    const link = i === 0 ? "" : `  ↓ ${e.relation ?? "linked"}\n`;
    return `${link}${color.cyan(formatDay(e.at))} ${shown(e.text)} ${color.dim(e.id)}`;
  });
  const others = t.memories.length - t.chain.length;
  if (others > 0)
    lines.push(color.dim(`(${others} more linked memories off this chain; --json lists them all)`));
  return lines.join("\n");
}
