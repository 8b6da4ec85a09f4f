/**
 * `memlane eval links`: agreement of a cognition engine's relation-aware linking with labelled
 * (older, newer, relation) pairs — exact agreement, linked-vs-None agreement, confusion matrix.
 */

import { z } from "zod";
import type { Cognition } from "../../cognition/cognition.js";
import { InvalidInputError } from "../../core/errors.js";
import { RELATIONS_OR_NONE, type RelationOrNone } from "../../core/relations.js";
import type { Usage } from "../../core/types.js";
import { linkRelationsStep } from "../../strategies/theanine/steps/link-relations.js";

const lineSchema = z.object({
  older: z.string().min(1),
  newer: z.string().min(1),
  relation: z.enum(RELATIONS_OR_NONE as [string, ...string[]]),
  about: z.string().optional(),
});

export type LinkExample = z.infer<typeof lineSchema>;

export function parseLinksJsonl(text: string, source = "input"): LinkExample[] {
  const out: LinkExample[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    try {
      const parsed = lineSchema.safeParse(JSON.parse(raw));
      if (parsed.success) out.push(parsed.data);
      else
        problems.push(
          `line ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join(".")} ${x.message}`).join("; ")}`,
        );
    } catch (error) {
      problems.push(`line ${i + 1}: not JSON (${(error as Error).message})`);
    }
  });
  if (problems.length)
    throw new InvalidInputError(
      `${source} has ${problems.length} bad line(s):\n${problems.slice(0, 20).join("\n")}`,
      { problems },
    );
  if (out.length === 0) throw new InvalidInputError(`${source} holds no pairs`);
  return out;
}

export interface LinksReport {
  engine: string;
  pairs: number;
  exact: number;
  linkedVsNone: number;
  confusion: Record<string, Record<string, number>>;
  usage: Usage;
}

export async function evaluateLinks(examples: LinkExample[], cognition: Cognition): Promise<LinksReport> {
  const at = "2024-01-01T00:00:00.000Z";
  const later = "2024-02-01T00:00:00.000Z";
  const result = await cognition.run(linkRelationsStep, {
    about: examples[0]?.about ?? "the partner",
    pairs: examples.map((e) => ({ older: { text: e.older, at }, newer: { text: e.newer, at: later } })),
  });
  const confusion: Record<string, Record<string, number>> = {};
  for (const g of RELATIONS_OR_NONE) confusion[g] = Object.fromEntries(RELATIONS_OR_NONE.map((p) => [p, 0]));
  let exact = 0;
  let linked = 0;
  examples.forEach((e, i) => {
    const predicted: RelationOrNone = result.value[i]!.relation;
    confusion[e.relation]![predicted]!++;
    if (predicted === e.relation) exact++;
    if ((predicted === "None") === (e.relation === "None")) linked++;
  });
  return {
    engine: result.model,
    pairs: examples.length,
    exact: exact / examples.length,
    linkedVsNone: linked / examples.length,
    confusion,
    usage: result.usage,
  };
}

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
  return lines.join("\n");
}
