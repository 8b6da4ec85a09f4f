/**
 * `memlane eval creem-typing`: how well the offline Blend & Refine types an insight against the
 * retrieved memories (New / Redundant / Updated, and which memories it retires), on labelled lines
 * `{ id, style, about, memories, insight, type, retires }` (data/creem/typing.jsonl, written by a
 * separate writer), as the offline step types them (CareCall's learned operator reads each pair
 * first). Scored per split (odd ids tune, even ids test), per type and per style.
 */
import { z } from "zod";
import { InvalidInputError } from "../../../src/core/errors.js";
import type { Embedder } from "../../../src/models/embedder.js";
import {
  gistVectors,
  INSIGHT_TYPES,
  type InsightType,
  typeInsightOffline,
} from "../../../src/strategies/creem/steps/blend-refine.js";

const lineSchema = z.object({
  id: z.string().min(1),
  style: z.string().default("unknown"),
  about: z.string().min(1),
  memories: z.array(z.string().min(1)).min(1),
  insight: z.string().min(1),
  type: z.enum(INSIGHT_TYPES),
  retires: z.array(z.number().int().min(1)),
});
export type TypingExample = z.infer<typeof lineSchema>;

export function parseTypingJsonl(text: string, source: string): TypingExample[] {
  return text
    .split("\n")
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l)
    .map(([l, n]) => {
      let raw: unknown;
      try {
        raw = JSON.parse(l);
      } catch (error) {
        throw new InvalidInputError(`${source}:${n} is not JSON: ${(error as Error).message}`, { line: n });
      }
      const parsed = lineSchema.safeParse(raw);
      if (!parsed.success)
        throw new InvalidInputError(`${source}:${n}: ${parsed.error.issues[0]?.message}`, { line: n });
      return parsed.data;
    });
}

/** Which split a line belongs to: odd id numbers tune, even ones test. */
export function splitOf(id: string): "tune" | "test" {
  const n = Number(/(\d+)/.exec(id)?.[1] ?? 0);
  return n % 2 === 1 ? "tune" : "test";
}

interface Tally {
  n: number;
  type: number;
  /** Lines whose type and retired set are both right. */
  exact: number;
}

export interface TypingReport {
  splits: Record<string, { all: Tally; byType: Record<string, Tally>; byStyle: Record<string, Tally> }>;
  confusion: Record<string, Record<string, number>>;
}

export async function evaluateTyping(examples: TypingExample[], embedder: Embedder): Promise<TypingReport> {
  const vectors = await gistVectors(
    embedder,
    examples.flatMap((e) => [e.insight, ...e.memories].map((text) => ({ text, about: e.about }))),
  );
  const report: TypingReport = { splits: {}, confusion: {} };
  for (const gold of INSIGHT_TYPES)
    report.confusion[gold] = Object.fromEntries(INSIGHT_TYPES.map((t) => [t, 0]));
  const tally = (
    split: string,
    key: "byType" | "byStyle" | null,
    name: string,
    typeOk: boolean,
    exact: boolean,
  ) => {
    report.splits[split] ??= { all: { n: 0, type: 0, exact: 0 }, byType: {}, byStyle: {} };
    const group = report.splits[split]!;
    if (key && !group[key][name]) group[key][name] = { n: 0, type: 0, exact: 0 };
    const t = key ? group[key][name]! : group.all;
    t.n++;
    if (typeOk) t.type++;
    if (exact) t.exact++;
  };
  for (const e of examples) {
    const retrieved = e.memories.map((text, i) => ({ n: i + 1, about: e.about, text }));
    const got = await typeInsightOffline({ about: e.about, text: e.insight }, retrieved, vectors, {
      embedder,
    });
    const typeOk = got.type === e.type;
    const exact = typeOk && sameSet(got.removes, e.retires);
    report.confusion[e.type]![got.type as InsightType]!++;
    for (const split of [splitOf(e.id), "all"]) {
      tally(split, null, "", typeOk, exact);
      tally(split, "byType", e.type, typeOk, exact);
      tally(split, "byStyle", e.style, typeOk, exact);
    }
  }
  return report;
}

function sameSet(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

const pct = (t: Tally, k: "type" | "exact") => (t.n ? ((100 * t[k]) / t.n).toFixed(1) : "–");

export function typingMarkdown(r: TypingReport): string {
  const lines = [
    "| split | group | lines | type accuracy | type + retired set |",
    "| --- | --- | ---: | ---: | ---: |",
  ];
  for (const split of ["test", "tune", "all"]) {
    const s = r.splits[split];
    if (!s) continue;
    lines.push(`| ${split} | all | ${s.all.n} | ${pct(s.all, "type")} | ${pct(s.all, "exact")} |`);
    for (const [name, t] of Object.entries(s.byType))
      lines.push(`| ${split} | ${name} | ${t.n} | ${pct(t, "type")} | ${pct(t, "exact")} |`);
    for (const [name, t] of Object.entries(s.byStyle))
      lines.push(`| ${split} | style ${name} | ${t.n} | ${pct(t, "type")} | ${pct(t, "exact")} |`);
  }
  lines.push(
    "",
    "Confusion (all lines; rows gold, columns predicted):",
    "",
    `| gold \\ predicted | ${INSIGHT_TYPES.join(" | ")} |`,
    `| --- |${INSIGHT_TYPES.map(() => " ---: |").join("")}`,
  );
  for (const g of INSIGHT_TYPES)
    lines.push(`| ${g} | ${INSIGHT_TYPES.map((p) => r.confusion[g]![p]).join(" | ")} |`);
  return lines.join("\n");
}
