/**
 * The offline privacy reader (cognition/offline/private-statement.ts) against the statements a
 * second hand wrote (lab/data/privacy/statements.jsonl), split before anyone looked: an id whose
 * FNV-1a hash is even is in the tune part, odd in the test part. Precision and recall of `private`
 * per part, by style and by kind; the request reader's precision and recall (reason request or
 * both); how close `withoutPrivacyRequest` comes to the writer's text without the request; and on
 * raw chat turns (LoCoMo), the share flagged and microseconds per turn.
 */
import { readFileSync } from "node:fs";
import { readPrivate, withoutPrivacyRequest } from "../../../src/cognition/offline/private-statement.js";
import { fnv1a } from "../../../src/core/text.js";
import { tokenF1 } from "../qa/token-f1.js";

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

export interface Counts {
  n: number;
  tp: number;
  fp: number;
  fn: number;
}

const count = (rows: { gold: boolean; said: boolean }[]): Counts => ({
  n: rows.length,
  tp: rows.filter((r) => r.gold && r.said).length,
  fp: rows.filter((r) => !r.gold && r.said).length,
  fn: rows.filter((r) => r.gold && !r.said).length,
});

export const precision = (c: Counts) => (c.tp + c.fp === 0 ? Number.NaN : c.tp / (c.tp + c.fp));
export const recall = (c: Counts) => (c.tp + c.fn === 0 ? Number.NaN : c.tp / (c.tp + c.fn));
export function f1(c: Counts): number {
  const p = precision(c);
  const r = recall(c);
  if (!(p + r > 0)) return Number.NaN;
  return (2 * p * r) / (p + r);
}

const normal = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

export interface PartReport {
  part: Part;
  all: Counts;
  byStyle: Record<string, Counts>;
  /** Recall of private rows of each kind, and false alarms on ordinary ones (kind "ordinary"). */
  byKind: Record<string, Counts>;
  request: Counts;
  clean: { n: number; exact: number; tokenF1: number };
  errors: {
    id: string;
    style: string;
    kind: string;
    reason: string;
    gold: boolean;
    said: string[];
    text: string;
  }[];
  cleanErrors: { id: string; got: string; want: string }[];
}

export function evaluatePart(rows: PrivacyStatement[], part: Part): PartReport {
  const read = rows.map((r) => ({ r, reading: readPrivate(r.text) }));
  const said = (x: (typeof read)[number]) => x.reading.reasons.length > 0;
  const group = (key: (r: PrivacyStatement) => string) => {
    const out: Record<string, Counts> = {};
    for (const k of [...new Set(rows.map(key))].sort())
      out[k] = count(read.filter((x) => key(x.r) === k).map((x) => ({ gold: x.r.private, said: said(x) })));
    return out;
  };
  const withClean = rows.filter((r) => r.clean !== null);
  let exact = 0;
  let tf = 0;
  const cleanErrors: PartReport["cleanErrors"] = [];
  for (const r of withClean) {
    const got = withoutPrivacyRequest(r.text);
    if (normal(got) === normal(r.clean!)) exact++;
    else cleanErrors.push({ id: r.id, got, want: r.clean! });
    tf += tokenF1(got, r.clean!);
  }
  return {
    part,
    all: count(read.map((x) => ({ gold: x.r.private, said: said(x) }))),
    byStyle: group((r) => r.style),
    byKind: group((r) => r.kind),
    request: count(
      read.map((x) => ({
        gold: x.r.reason === "request" || x.r.reason === "both",
        said: x.reading.reasons.includes("request"),
      })),
    ),
    clean: { n: withClean.length, exact, tokenF1: withClean.length ? tf / withClean.length : Number.NaN },
    errors: read
      .filter((x) => x.r.private !== said(x))
      .map((x) => ({
        id: x.r.id,
        style: x.r.style,
        kind: x.r.kind,
        reason: x.r.reason,
        gold: x.r.private,
        said: x.reading.reasons,
        text: x.r.text,
      })),
    cleanErrors,
  };
}

export interface ChatReport {
  turns: number;
  flagged: number;
  byReason: Record<string, number>;
  /** Ten flagged turns drawn at random (seeded), for a person to judge. */
  sample: { text: string; reasons: string[] }[];
  microsPerTurn: number;
}

/** Every turn's text in a LoCoMo file (session_N lists of {speaker, text}). */
export function locomoTurns(path: string): string[] {
  const raw = JSON.parse(readFileSync(path, "utf8")) as { conversation: Record<string, unknown> }[];
  const out: string[] = [];
  for (const sample of Array.isArray(raw) ? raw : [raw])
    for (const [key, value] of Object.entries(sample.conversation ?? {}))
      if (/^session_\d+$/.test(key) && Array.isArray(value))
        for (const t of value as { text?: unknown }[]) if (typeof t.text === "string") out.push(t.text);
  return out;
}

export function evaluateChat(turns: string[], seed = 7): ChatReport {
  const byReason: Record<string, number> = {};
  const flagged: { text: string; reasons: string[] }[] = [];
  for (const text of turns) {
    const { reasons } = readPrivate(text);
    if (reasons.length === 0) continue;
    flagged.push({ text, reasons });
    for (const r of reasons) byReason[r] = (byReason[r] ?? 0) + 1;
  }
  // Timing: a few passes after the warm-up above (the lexicon is loaded).
  const passes = Math.max(1, Math.ceil(20000 / Math.max(1, turns.length)));
  const t0 = process.hrtime.bigint();
  for (let p = 0; p < passes; p++) for (const text of turns) readPrivate(text);
  const micros = Number(process.hrtime.bigint() - t0) / 1000 / Math.max(1, passes * turns.length);
  let s = seed >>> 0;
  const rand = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const pool = [...flagged];
  const sample: ChatReport["sample"] = [];
  while (pool.length && sample.length < 10) sample.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!);
  return { turns: turns.length, flagged: flagged.length, byReason, sample, microsPerTurn: micros };
}

const pct = (x: number) => (Number.isNaN(x) ? "–" : (100 * x).toFixed(1));
const row = (name: string, c: Counts) =>
  `| ${name} | ${c.n} | ${c.tp + c.fn} | ${pct(precision(c))} | ${pct(recall(c))} | ${pct(f1(c))} | ${c.fp} |`;

export function privacyMarkdown(parts: PartReport[], chat?: ChatReport, showErrors = false): string {
  const lines: string[] = [];
  for (const p of parts) {
    lines.push(
      `## ${p.part} split`,
      "",
      "| group | n | private | P | R | F1 | false alarms |",
      "|---|---|---|---|---|---|---|",
    );
    lines.push(row("**all**", p.all));
    for (const [k, c] of Object.entries(p.byStyle)) lines.push(row(`style ${k}`, c));
    for (const [k, c] of Object.entries(p.byKind)) lines.push(row(`kind ${k}`, c));
    lines.push(row("request (reason request/both)", p.request));
    lines.push(
      "",
      `withoutPrivacyRequest vs clean: ${p.clean.exact}/${p.clean.n} exact (${pct(p.clean.exact / (p.clean.n || 1))}%), token F1 ${pct(p.clean.tokenF1)}`,
      "",
    );
    if (showErrors) {
      for (const e of p.errors)
        lines.push(
          `- ${e.id} ${e.gold ? "MISSED" : "FALSE"} ${e.style}/${e.kind}/${e.reason} [${e.said.join(",")}] ${e.text}`,
        );
      for (const e of p.cleanErrors) lines.push(`- clean ${e.id}: got «${e.got}» want «${e.want}»`);
      lines.push("");
    }
  }
  if (chat) {
    lines.push(
      "## LoCoMo turns (ordinary chat)",
      "",
      `${chat.flagged}/${chat.turns} turns flagged (${pct(chat.flagged / (chat.turns || 1))}%): ${Object.entries(
        chat.byReason,
      )
        .map(([r, k]) => `${r} ${k}`)
        .join(", ")}; ${chat.microsPerTurn.toFixed(2)} µs per turn`,
      "",
      "Ten flagged turns at random, for a person to judge:",
      "",
      ...chat.sample.map((s) => `- [${s.reasons.join(",")}] ${s.text}`),
      "",
    );
  }
  return lines.join("\n");
}

const STATEMENTS = new URL("../../data/privacy/statements.jsonl", import.meta.url).pathname;

/** `node --import tsx lab/eval/privacy/evaluate.ts [--errors] [--test]`: the tune split, or both. */
async function main() {
  const args = process.argv.slice(2);
  const rows = loadStatements(STATEMENTS);
  const parts: Part[] = args.includes("--test") ? ["tune", "test"] : ["tune"];
  const reports = parts.map((p) =>
    evaluatePart(
      rows.filter((r) => partOf(r.id) === p),
      p,
    ),
  );
  const { sharedDataPath } = await import("../../shared-data.js");
  const locomo = sharedDataPath("locomo-dev/locomo-dev.json");
  const { existsSync } = await import("node:fs");
  const chat = locomo && existsSync(locomo) ? evaluateChat(locomoTurns(locomo)) : undefined;
  console.log(privacyMarkdown(reports, chat, args.includes("--errors")));
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) void main();
