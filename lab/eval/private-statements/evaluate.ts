/**
 * The offline private-statement detector (cognition/offline/private-statement.ts) against the
 * statements a second hand wrote (lab/data/privacy/statements.jsonl), split before anyone looked:
 * an id whose FNV-1a hash is even is in the tune part, odd in the test part. Precision and recall
 * of `private` per part, by style and by kind; how well requests are found; how close
 * `withoutPrivacyRequest` comes to the writer's own text without the request; and, on raw chat
 * turns (LoCoMo dev), how often an ordinary turn is flagged and how long a reading takes.
 */
import { readFileSync } from "node:fs";
import { readPrivate, withoutPrivacyRequest } from "../../../src/cognition/offline/private-statement.js";
import { fnv1a, terms } from "../../../src/core/text.js";

export interface PrivacyStatement {
  id: string;
  style: string;
  text: string;
  private: boolean;
  reason: "request" | "kind" | "both" | "none";
  kind: string;
  clean: string | null;
}

export type Part = "tune" | "test";

export const partOf = (id: string): Part => (fnv1a(id) % 2 === 0 ? "tune" : "test");

export function loadStatements(path: string): PrivacyStatement[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as PrivacyStatement);
}

export interface Score {
  n: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const score = (rows: { gold: boolean; said: boolean }[]): Score => ({
  n: rows.length,
  tp: rows.filter((r) => r.gold && r.said).length,
  fp: rows.filter((r) => !r.gold && r.said).length,
  fn: rows.filter((r) => r.gold && !r.said).length,
  tn: rows.filter((r) => !r.gold && !r.said).length,
});

const pct = (x: number, of: number) => (of === 0 ? "–" : `${((100 * x) / of).toFixed(1)}`);

/** "P / R / F1" of a score, as percentages. */
export function prf(s: Score): string {
  const p = s.tp / (s.tp + s.fp || 1);
  const r = s.tp / (s.tp + s.fn || 1);
  const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return `${pct(s.tp, s.tp + s.fp)} / ${pct(s.tp, s.tp + s.fn)} / ${(100 * f).toFixed(1)}`;
}

/** Token F1 between two texts' content words. */
function tokenF1(a: string, b: string): number {
  const x = terms(a);
  const y = terms(b);
  if (x.length === 0 && y.length === 0) return 1;
  const left = new Map<string, number>();
  for (const t of y) left.set(t, (left.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of x) {
    const n = left.get(t) ?? 0;
    if (n > 0) {
      common++;
      left.set(t, n - 1);
    }
  }
  if (common === 0) return 0;
  const p = common / x.length;
  const r = common / y.length;
  return (2 * p * r) / (p + r);
}

export interface PrivacyReport {
  part: Part | "all";
  overall: Score;
  byStyle: Record<string, Score>;
  byKind: Record<string, Score>;
  request: Score;
  /** Mean token F1 of the stripped text against the writer's, over statements with a request. */
  cleanF1: number;
  cleanCount: number;
  errors: { id: string; style: string; gold: boolean; said: string[]; text: string }[];
}

/** Scores one part (or all) of the statements. */
export function evaluateStatements(rows: PrivacyStatement[], part: Part | "all"): PrivacyReport {
  const chosen = rows.filter((r) => part === "all" || partOf(r.id) === part);
  const read = chosen.map((r) => ({ r, reading: readPrivate(r.text) }));
  const judged = read.map(({ r, reading }) => ({ r, gold: r.private, said: reading.reasons.length > 0 }));
  const group = (key: (r: PrivacyStatement) => string) => {
    const out: Record<string, Score> = {};
    for (const k of [...new Set(chosen.map(key))].sort())
      out[k] = score(judged.filter((j) => key(j.r) === k));
    return out;
  };
  const withRequest = read.filter(({ r }) => r.clean !== null);
  return {
    part,
    overall: score(judged),
    byStyle: group((r) => r.style),
    byKind: group((r) => (r.private ? r.kind : "ordinary (not private)")),
    request: score(
      read.map(({ r, reading }) => ({
        gold: r.reason === "request" || r.reason === "both",
        said: reading.reasons.includes("request"),
      })),
    ),
    cleanF1:
      withRequest.reduce((sum, { r }) => sum + tokenF1(withoutPrivacyRequest(r.text), r.clean!), 0) /
      (withRequest.length || 1),
    cleanCount: withRequest.length,
    errors: read
      .filter(({ r, reading }) => r.private !== reading.reasons.length > 0)
      .map(({ r, reading }) => ({
        id: r.id,
        style: r.style,
        gold: r.private,
        said: reading.reasons,
        text: r.text,
      })),
  };
}

/** Share of turns flagged private, and microseconds per reading, on raw chat turns. */
export function flagRate(turns: string[]): {
  turns: number;
  flagged: number;
  microsPerTurn: number;
  examples: string[];
} {
  const started = performance.now();
  const flagged = turns.filter((t) => readPrivate(t).reasons.length > 0);
  const micros = ((performance.now() - started) * 1000) / (turns.length || 1);
  // Every tenth flagged turn, for a person to judge.
  return {
    turns: turns.length,
    flagged: flagged.length,
    microsPerTurn: micros,
    examples: flagged.filter((_, i) => i % Math.max(1, Math.floor(flagged.length / 12)) === 0).slice(0, 12),
  };
}

/** The report as Markdown. */
export function privacyMarkdown(reports: PrivacyReport[]): string {
  const out: string[] = [];
  for (const r of reports) {
    out.push(`### ${r.part} (${r.overall.n} statements)`, "");
    out.push("| slice | statements | private P / R / F1, % |", "| --- | ---: | ---: |");
    out.push(`| all | ${r.overall.n} | ${prf(r.overall)} |`);
    for (const [k, s] of Object.entries(r.byStyle)) out.push(`| style: ${k} | ${s.n} | ${prf(s)} |`);
    out.push(`| request found (P / R / F1) | ${r.request.n} | ${prf(r.request)} |`, "");
    out.push("| kind (gold) | statements | flagged, % |", "| --- | ---: | ---: |");
    for (const [k, s] of Object.entries(r.byKind)) out.push(`| ${k} | ${s.n} | ${pct(s.tp + s.fp, s.n)} |`);
    out.push(
      "",
      `Request taken out: token F1 against the writer's text ${(100 * r.cleanF1).toFixed(1)} % over ${r.cleanCount} statements.`,
      "",
    );
  }
  return out.join("\n");
}
