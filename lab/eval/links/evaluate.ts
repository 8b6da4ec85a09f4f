/**
 * `memlane eval links`: agreement of a cognition engine's relation-aware linking with labelled
 * (older, newer, relation) pairs — exact agreement, linked-vs-None agreement, confusion matrix.
 */

import { z } from "zod";
import type { Cognition } from "../../../src/cognition/cognition.js";
import { RELATIONS_OR_NONE, type RelationOrNone } from "../../../src/core/relations.js";
import { addUsage, emptyUsage, type Usage } from "../../../src/core/types.js";
import { linkRelationsStep } from "../../../src/strategies/theanine/steps/link-relations.js";
import { readJsonl } from "../jsonl.js";

const day = z.string().refine((d) => !Number.isNaN(Date.parse(d)), "not a date");
const lineSchema = z.object({
  older: z.string().min(1),
  newer: z.string().min(1),
  relation: z.enum(RELATIONS_OR_NONE as [string, ...string[]]),
  about: z.string().min(1).nullable().optional(),
  id: z.string().min(1).optional(),
  style: z.string().min(1).optional(),
  domain: z.string().min(1).optional(),
  older_at: day.optional(),
  newer_at: day.optional(),
});

/**
 * One labelled pair: `{older, newer, relation}`, optionally `about`, `id`, `style`, `domain` and
 * the dates `older_at` / `newer_at` (the format of memory-ops/links-train.jsonl in MEMLANE_SHARED_DATA).
 * Without dates the older event is placed a month before the newer one.
 */
export type LinkExample = Omit<z.infer<typeof lineSchema>, "relation" | "about"> & {
  relation: RelationOrNone;
  about: string;
  id: string;
  style: string;
  older_at: string;
  newer_at: string;
};

export function parseLinksJsonl(text: string, source = "input"): LinkExample[] {
  return readJsonl(text, lineSchema, source, "pairs", (e, line, problem) => {
    if (e.older_at && e.newer_at && Date.parse(e.older_at) > Date.parse(e.newer_at))
      problem("older_at is after newer_at");
    return {
      ...e,
      relation: e.relation as RelationOrNone,
      about: e.about ?? "the partner",
      id: e.id ?? `line-${line}`,
      style: e.style ?? "unstyled",
      older_at: e.older_at ?? "2024-01-01",
      newer_at: e.newer_at ?? "2024-02-01",
    };
  });
}

/** One scored pair, kept so folds can be merged and scores broken down by style and label. */
export interface LinkRecord {
  style: string;
  gold: RelationOrNone;
  predicted: RelationOrNone;
}

export interface LinksReport {
  engine: string;
  pairs: number;
  exact: number;
  linkedVsNone: number;
  confusion: Record<string, Record<string, number>>;
  usage: Usage;
  records: LinkRecord[];
}

export async function evaluateLinks(examples: LinkExample[], cognition: Cognition): Promise<LinksReport> {
  // One call per person the pairs are about (a call judges the memories of one person).
  const byAbout = new Map<string, number[]>();
  examples.forEach((e, i) => {
    byAbout.set(e.about, [...(byAbout.get(e.about) ?? []), i]);
  });
  const predicted: RelationOrNone[] = new Array(examples.length);
  let usage = emptyUsage();
  let engine = cognition.name;
  for (const [about, indices] of byAbout) {
    const result = await cognition.run(linkRelationsStep, {
      about,
      pairs: indices.map((i) => {
        const e = examples[i]!;
        return {
          older: { text: e.older, at: isoDay(e.older_at) },
          newer: { text: e.newer, at: isoDay(e.newer_at) },
        };
      }),
    });
    usage = addUsage(usage, result.usage);
    engine = result.model;
    indices.forEach((i, n) => {
      predicted[i] = result.value[n]!.relation;
    });
  }
  return summarizeLinks(
    engine,
    examples.map((e, i) => ({ style: e.style, gold: e.relation, predicted: predicted[i]! })),
    usage,
  );
}

const isoDay = (day: string) => new Date(Date.parse(day)).toISOString();

/** Reports of several folds as one. */
export function mergeLinksReports(reports: LinksReport[]): LinksReport {
  return summarizeLinks(
    reports[0]!.engine,
    reports.flatMap((r) => r.records),
    reports.reduce((u, r) => addUsage(u, r.usage), emptyUsage()),
  );
}

function summarizeLinks(engine: string, records: LinkRecord[], usage: Usage): LinksReport {
  const confusion: Record<string, Record<string, number>> = {};
  for (const g of RELATIONS_OR_NONE) confusion[g] = Object.fromEntries(RELATIONS_OR_NONE.map((p) => [p, 0]));
  for (const r of records) confusion[r.gold]![r.predicted]!++;
  return {
    engine,
    pairs: records.length,
    exact: exactShare(records),
    linkedVsNone: linkedShare(records),
    confusion,
    usage,
    records,
  };
}

const exactShare = (rs: LinkRecord[]) =>
  rs.length ? rs.filter((r) => r.gold === r.predicted).length / rs.length : 0;
const linkedShare = (rs: LinkRecord[]) =>
  rs.length ? rs.filter((r) => (r.gold === "None") === (r.predicted === "None")).length / rs.length : 0;

export function linksMarkdown(r: LinksReport): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const lines = [
    `| engine | pairs | exact agreement | linked vs None | model calls |`,
    `| --- | ---: | ---: | ---: | ---: |`,
    `| ${r.engine} | ${r.pairs} | ${pct(r.exact)} | ${pct(r.linkedVsNone)} | ${r.usage.calls} |`,
    "",
    "Confusion matrix (rows gold, columns predicted):",
    "",
    `| gold \\ predicted | ${RELATIONS_OR_NONE.join(" | ")} |`,
    `| --- |${RELATIONS_OR_NONE.map(() => " ---: |").join("")}`,
  ];
  for (const g of RELATIONS_OR_NONE)
    lines.push(`| ${g} | ${RELATIONS_OR_NONE.map((p) => r.confusion[g]![p]).join(" | ")} |`);
  const styles = [...new Set(r.records.map((x) => x.style))].sort();
  if (styles.length > 1) {
    lines.push(
      "",
      "By style:",
      "",
      "| style | pairs | exact | linked vs None |",
      "| --- | ---: | ---: | ---: |",
    );
    for (const style of styles) {
      const rs = r.records.filter((x) => x.style === style);
      lines.push(`| ${style} | ${rs.length} | ${pct(exactShare(rs))} | ${pct(linkedShare(rs))} |`);
    }
  }
  lines.push(
    "",
    "By relation:",
    "",
    "| relation | gold pairs | recall | precision |",
    "| --- | ---: | ---: | ---: |",
  );
  for (const g of RELATIONS_OR_NONE) {
    const gold = r.records.filter((x) => x.gold === g);
    const said = r.records.filter((x) => x.predicted === g);
    const hit = gold.filter((x) => x.predicted === g).length;
    lines.push(
      `| ${g} | ${gold.length} | ${gold.length ? pct(hit / gold.length) : "–"} | ${said.length ? pct(hit / said.length) : "–"} |`,
    );
  }
  return lines.join("\n");
}
