/**
 * How well EMMA's offline link judgement (related or not) agrees with labelled pairs: the
 * memory-ops link file (any relation counts as related, None as not; its own dev / frozen split)
 * or EMMA's own pairs (data/emma/links.jsonl: egocentric memories about different people, with
 * `related` true or false and a tune / test split by hash of the pair's id).
 */
import { z } from "zod";
import type { OfflineKit } from "../../../src/cognition/step.js";
import { type LinkJudge, relatedness } from "../../../src/strategies/emma/steps/link.js";
import { readJsonl } from "../jsonl.js";
import { parseLinksJsonl } from "../links/evaluate.js";
import { linkKey, type Part, selectPart } from "../memory-ops/cross-validate.js";
import { emmaPart } from "./dataset.js";

/** One pair to judge: two memories (who each is about, when) and whether they are related. */
export interface RelatedPairExample {
  id: string;
  style: string;
  older: { text: string; about: string; at: string };
  newer: { text: string; about: string; at: string };
  related: boolean;
}

const day = z.string().refine((d) => !Number.isNaN(Date.parse(d)), "not a date");
const emmaLine = z.object({
  id: z.string().min(1),
  style: z.string().min(1).default("emma"),
  older: z.string().min(1),
  newer: z.string().min(1),
  older_about: z.string().min(1),
  newer_about: z.string().min(1),
  older_at: day,
  newer_at: day,
  related: z.boolean(),
});

const iso = (d: string) => new Date(Date.parse(d)).toISOString();

/** EMMA's own labelled pairs, one JSON object a line. */
export function parseEmmaLinks(text: string, source = "input"): RelatedPairExample[] {
  return readJsonl(text, emmaLine, source, "pairs", (e) => ({
    id: e.id,
    style: e.style,
    older: { text: e.older, about: e.older_about, at: iso(e.older_at) },
    newer: { text: e.newer, about: e.newer_about, at: iso(e.newer_at) },
    related: e.related,
  }));
}

/** The memory-ops link file as related / not-related pairs, the part asked for (its own split). */
export function memoryOpsPairs(text: string, part: Part, source = "input"): RelatedPairExample[] {
  return selectPart(parseLinksJsonl(text, source), part, linkKey).map((e) => ({
    id: e.id,
    style: e.style,
    older: { text: e.older, about: e.about, at: iso(e.older_at) },
    newer: { text: e.newer, about: e.about, at: iso(e.newer_at) },
    related: e.relation !== "None",
  }));
}

/** EMMA pairs of a part: tune is one in three by a hash of the id (as episodes), fixed before any scoring. */
export function emmaPairsPart(
  pairs: RelatedPairExample[],
  part: "all" | "tune" | "test",
): RelatedPairExample[] {
  return part === "all" ? pairs : pairs.filter((p) => emmaPart(p.id) === part);
}

export interface LinkAgreement {
  pairs: number;
  threshold: number;
  accuracy: number;
  /** Of the pairs judged related, the share labelled related. */
  precision: number;
  /** Of the pairs labelled related, the share judged related. */
  recall: number;
  byStyle: { style: string; pairs: number; accuracy: number }[];
  /** Each pair's relatedness score, for choosing a threshold. */
  scores: { id: string; score: number; related: boolean }[];
}

/** Scores every pair once, then reports agreement at `threshold`. */
export async function evaluateRelatedness(
  examples: RelatedPairExample[],
  kit: OfflineKit,
  threshold: number,
  judge?: LinkJudge,
): Promise<LinkAgreement> {
  const scores = await relatedness(
    examples.map((e) => [e.older, e.newer]),
    kit,
    judge,
  );
  return agreementAt(
    examples.map((e, i) => ({ id: e.id, style: e.style, score: scores[i]!.score, related: e.related })),
    threshold,
  );
}

export function agreementAt(
  scored: { id: string; style: string; score: number; related: boolean }[],
  threshold: number,
): LinkAgreement {
  const said = (x: { score: number }) => x.score >= threshold;
  const share = (n: number, d: number) => (d ? n / d : 0);
  const styles = [...new Set(scored.map((s) => s.style))].sort();
  return {
    pairs: scored.length,
    threshold,
    accuracy: share(scored.filter((s) => said(s) === s.related).length, scored.length),
    precision: share(scored.filter((s) => said(s) && s.related).length, scored.filter(said).length),
    recall: share(scored.filter((s) => said(s) && s.related).length, scored.filter((s) => s.related).length),
    byStyle: styles.map((style) => {
      const rs = scored.filter((s) => s.style === style);
      return {
        style,
        pairs: rs.length,
        accuracy: share(rs.filter((s) => said(s) === s.related).length, rs.length),
      };
    }),
    scores: scored.map(({ id, score, related }) => ({ id, score, related })),
  };
}

/** The threshold (on a 0.05 grid) with the best accuracy on `scored`; ties go to the lower one. */
export function bestThreshold(
  scored: { id: string; style: string; score: number; related: boolean }[],
): number {
  let best = { t: 0.5, acc: -1 };
  for (let t = 0.05; t < 1; t += 0.05) {
    const acc = agreementAt(scored, Number(t.toFixed(2))).accuracy;
    if (acc > best.acc + 1e-9) best = { t: Number(t.toFixed(2)), acc };
  }
  return best.t;
}

export function linkAgreementMarkdown(title: string, r: LinkAgreement): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const lines = [
    `${title}`,
    "",
    "| pairs | threshold | accuracy (related vs not) | precision | recall |",
    "| ---: | ---: | ---: | ---: | ---: |",
    `| ${r.pairs} | ${r.threshold.toFixed(2)} | ${pct(r.accuracy)} | ${pct(r.precision)} | ${pct(r.recall)} |`,
  ];
  if (r.byStyle.length > 1) {
    lines.push("", "| style | pairs | accuracy |", "| --- | ---: | ---: |");
    for (const s of r.byStyle) lines.push(`| ${s.style} | ${s.pairs} | ${pct(s.accuracy)} |`);
  }
  return lines.join("\n");
}
