/** The memory-rules report as Markdown: cases kept per class and split, per style, and talk in memories. */
import { RULE_CLASSES } from "./dataset.js";
import type { RuleReport } from "./evaluate.js";

const cell = (c: { cases: number; passed: number }) => (c.cases ? `${c.passed} / ${c.cases}` : "–");

export function rulesMarkdown(report: RuleReport, options: { failures?: boolean } = {}): string {
  const out: string[] = [];
  for (const split of ["tune", "test", "all"] as const) {
    const counts = report.rows[0]?.cells[split];
    if (!counts || counts.all.cases === 0) continue;
    out.push(
      `### ${split} (${counts.all.cases} cases)`,
      "",
      `| strategy | ${RULE_CLASSES.join(" | ")} | all |`,
      `| --- | ${RULE_CLASSES.map(() => "---:").join(" | ")} | ---: |`,
    );
    for (const r of report.rows)
      out.push(
        `| ${r.strategy} | ${RULE_CLASSES.map((g) => cell(r.cells[split][g])).join(" | ")} | ${cell(r.cells[split].all)} |`,
      );
    out.push("");
  }
  const styles = [...new Set(report.rows.flatMap((r) => Object.keys(r.styles)))].sort();
  if (styles.length > 0) {
    out.push(
      "### test half by style",
      "",
      `| strategy | ${styles.join(" | ")} |`,
      `| --- | ${styles.map(() => "---:").join(" | ")} |`,
    );
    for (const r of report.rows)
      out.push(
        `| ${r.strategy} | ${styles.map((s) => cell(r.styles[s] ?? { cases: 0, passed: 0 })).join(" | ")} |`,
      );
    out.push("");
  }
  out.push("### active memories that carry talk (bare pronoun subject, greeting, the agent's name)", "");
  for (const r of report.rows) out.push(`- ${r.strategy}: ${r.uncleanMemories} of ${r.activeMemories}`);
  out.push("");
  if (options.failures)
    for (const r of report.rows) {
      out.push(`### ${r.strategy}: what failed`, "");
      for (const v of r.verdicts.filter((x) => !x.passed || x.unclean.length > 0)) {
        out.push(
          `- **${v.id}** (${v.class}, ${v.style}, ${v.split}): ${[...v.failures, ...v.unclean.map((u) => `talk (${u.why}): "${u.text}"`)].join("; ")}`,
        );
        for (const m of v.memories) out.push(`  - [${m.status}] ${m.text}`);
      }
      out.push("");
    }
  out.push(
    `Cases kept (every matcher held), offline cognition; each case's half is fixed by a hash of its id. ${report.cases} cases, ${(report.elapsedMs / 1000).toFixed(1)} s.`,
  );
  return out.join("\n");
}
