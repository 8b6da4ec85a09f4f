/** The currency report as Markdown: one table per split. */
import type { CurrencyReport } from "./evaluate.js";

/** A share as a percentage with one decimal, or "–" when nothing was asked. */
function pct(n: number, of: number): string {
  return of ? `${((100 * n) / of).toFixed(1)} %` : "–";
}

/**
 * One table per split (tune, test, all): per strategy, hit@3 per kind of question and the share
 * of current questions whose first hit is stale.
 */
export function currencyMarkdown(report: CurrencyReport): string {
  const out: string[] = [];
  for (const split of ["tune", "test", "all"] as const) {
    const counts = report.rows[0]?.cells[split];
    if (!counts || counts.all.questions === 0) continue;
    out.push(
      `### ${split} (${counts.all.questions} questions: ${counts.current.questions} current, ${counts.stable.questions} stable, ${counts.past.questions} past)`,
      "",
      `| strategy | units | current: gold in top ${report.k} | current: stale first | stable: gold in top ${report.k} | past: gold in top ${report.k} | all: gold in top ${report.k} |`,
      "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of report.rows) {
      const c = r.cells[split];
      out.push(
        `| ${r.strategy} | ${r.units} | ${pct(c.current.hits, c.current.questions)} | ${pct(c.current.staleFirst, c.current.questions)} | ${pct(c.stable.hits, c.stable.questions)} | ${pct(c.past.hits, c.past.questions)} | ${pct(c.all.hits, c.all.questions)} |`,
      );
    }
    out.push("");
  }
  out.push(
    `Top ${report.k} per question, recalled about the partner with the question's asked_at as the present; a memory counts through its source turns. ` +
      `Stale first: the first hit is a stale turn, or a memory from a stale turn and no gold one. ` +
      `${report.conversations} conversations, ${(report.elapsedMs / 1000).toFixed(1)} s.`,
  );
  return out.join("\n");
}
