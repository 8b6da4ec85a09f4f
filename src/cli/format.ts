/** Text renderings of memories, hits, histories and timelines for the terminal. */
import type { Recall, VersionStatus } from "../core/recall.js";
import { formatDay } from "../core/time.js";
import type { Memory, Operation } from "../core/types.js";
import type { TimelineView } from "../engine/history/timeline.js";
import type { HistoryView } from "../engine/memlane.js";
import { color, shown } from "./output.js";

export { shown };

export function memoryLine(m: Memory): string {
  const status = m.status === "active" ? color.green("active") : color.yellow(m.status);
  return `${color.dim(m.id)} ${status} ${color.cyan(formatDay(m.observedAt))} [${shown(m.about)}] ${shown(m.text)}`;
}

export function recallText(recall: Recall): string {
  if (recall.hits.length === 0) return color.dim("(nothing recalled)");
  const lines: string[] = [];
  if (recall.temporal)
    lines.push(
      color.dim(
        recall.temporal === "past"
          ? "(asks about an earlier state: superseded versions too, with what replaced them)"
          : "(asks whether a state still holds: what holds now first, then what it replaced)",
      ),
    );
  const shownChains = new Set<string>();
  recall.hits.forEach((h, i) => {
    const signals = Object.entries(h.explanation)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const mark = h.status ? `${versionMark(h.status)} ` : "";
    lines.push(
      `${i + 1}. ${mark}${shown(h.text)}`,
      `   ${color.dim(`${h.kind} ${h.id} · ${shown(h.about)} · ${when(h.observedAt, h.status, h.memory?.invalidAt)} · ${signals}`)}`,
    );
    // Each chain once, under its first hit: oldest version first.
    const key = h.chain?.map((v) => v.id).join(">");
    if (!h.chain || !key || shownChains.has(key)) return;
    shownChains.add(key);
    lines.push(
      `   ${color.dim("versions:")} ${h.chain
        .map((v) => `${versionMark(v.status)} ${color.cyan(formatDay(v.observedAt))} ${shown(v.text)}`)
        .join(color.dim(" → "))}`,
    );
  });
  return lines.join("\n");
}

function versionMark(status: VersionStatus): string {
  return status === "current" ? color.green("[current]") : color.yellow("[past]");
}

/** "1 Mar 2024", "current since 1 Mar 2024", or "past: 1 Mar 2024 – 1 Apr 2024". */
function when(observedAt: string, status: VersionStatus | undefined, invalidAt?: string | null): string {
  if (status === "current") return `current since ${formatDay(observedAt)}`;
  if (status === "past")
    return `past: ${formatDay(observedAt)}${invalidAt ? ` – ${formatDay(invalidAt)}` : ""}`;
  return formatDay(observedAt);
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
  if (h.corrections.length) lines.push("  corrections:", ...h.corrections.map((c) => `    ${shown(c.text)}`));
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
