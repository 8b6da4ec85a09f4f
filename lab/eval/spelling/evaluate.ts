/**
 * The typed-slips set (data/typos/): chat messages with their slips and the same messages with
 * only the slips put right, written by a second hand. Each message is read the way the
 * summarizer reads it (contractions written out, then slips), and its words are set beside the
 * right ones: slips repaired, repaired wrong or missed, and right words harmed. Halves by the
 * rules set's SHA-1 parity of the id.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { withContractionsSpelled } from "../../../src/cognition/offline/chat-spelling.js";
import { withSlipsRepaired } from "../../../src/cognition/offline/typed-slips.js";
import { InvalidInputError } from "../../../src/core/errors.js";
import { type RuleSplit, splitOf } from "../rules/dataset.js";

export interface SlipCase {
  id: string;
  style: string;
  text: string;
  fixed: string;
  realword: boolean;
  split: RuleSplit;
}

export interface SlipTally {
  messages: number;
  /** Messages read exactly as `fixed`. */
  exact: number;
  slips: number;
  repaired: number;
  /** Slips changed into a word that is not the one meant. */
  wrong: number;
  /** Words typed right and changed. */
  harmed: number;
  words: number;
}

export interface SlipReport {
  /** By half, then by style ("phonetic", "phonetic (real word)", "clean", "all"). */
  halves: Record<"tune" | "test" | "all", Record<string, SlipTally>>;
  examples: { id: string; typed: string; read: string; meant: string }[];
}

export async function loadSlipCases(dir: string): Promise<SlipCase[]> {
  const file = join(dir, "typos.jsonl");
  const lines = (await readFile(file, "utf8")).split("\n");
  return lines.flatMap((line, i) => {
    if (!line.trim()) return [];
    const c = JSON.parse(line) as Partial<SlipCase> & { realword?: boolean };
    if (typeof c.id !== "string" || typeof c.text !== "string" || typeof c.fixed !== "string")
      throw new InvalidInputError(`${file}:${i + 1}: a case needs id, text and fixed`);
    return [
      {
        id: c.id,
        style: String(c.style ?? "unknown"),
        text: c.text,
        fixed: c.fixed,
        realword: c.realword === true,
        split: splitOf(c.id),
      },
    ];
  });
}

const empty = (): SlipTally => ({
  messages: 0,
  exact: 0,
  slips: 0,
  repaired: 0,
  wrong: 0,
  harmed: 0,
  words: 0,
});

/** Reads every message and tallies it under its half and style, and under "all". */
export function evaluateSlips(cases: SlipCase[]): SlipReport {
  const halves: SlipReport["halves"] = { tune: {}, test: {}, all: {} };
  const examples: SlipReport["examples"] = [];
  for (const c of cases) {
    // Contractions are written out before slips are read, as the summarizer does; the expected
    // text gets the same, so only slips are compared.
    const read = withSlipsRepaired(withContractionsSpelled(c.text));
    const meant = withContractionsSpelled(c.fixed);
    const typed = withContractionsSpelled(c.text).split(/\s+/);
    const got = read.split(/\s+/);
    const want = meant.split(/\s+/);
    const t = empty();
    t.messages = 1;
    t.exact = read === meant ? 1 : 0;
    for (let i = 0; i < Math.min(typed.length, want.length, got.length); i++) {
      t.words++;
      if (typed[i] === want[i]) {
        if (got[i] !== want[i]) t.harmed++;
      } else {
        t.slips++;
        if (got[i] === want[i]) t.repaired++;
        else if (got[i] !== typed[i]) t.wrong++;
      }
    }
    if (read !== meant) examples.push({ id: c.id, typed: c.text, read, meant });
    const style = c.realword ? `${c.style} (real word)` : c.style;
    for (const half of [c.split, "all"] as const)
      for (const key of [style, "all"]) {
        halves[half][key] ??= empty();
        const into = halves[half][key]!;
        for (const k of Object.keys(t) as (keyof SlipTally)[]) into[k] += t[k];
      }
  }
  return { halves, examples };
}

/** The report as Markdown: one table per half, and with `examples` the messages not read right. */
export function slipsMarkdown(report: SlipReport, options: { examples?: boolean } = {}): string {
  const out: string[] = [];
  for (const half of ["tune", "test", "all"] as const) {
    const rows = report.halves[half];
    const n = rows.all?.messages ?? 0;
    if (n === 0) continue;
    out.push(`### ${half} (${n} messages)`, "");
    out.push("| style | messages | read exactly | slips | repaired | repaired wrong | right words harmed |");
    out.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const [style, t] of Object.entries(rows).sort(([a], [b]) =>
      a === "all" ? 1 : b === "all" ? -1 : a.localeCompare(b),
    ))
      out.push(
        `| ${style} | ${t.messages} | ${t.exact} | ${t.slips} | ${t.repaired} | ${t.wrong} | ${t.harmed} of ${t.words - t.slips} |`,
      );
    out.push("");
  }
  if (options.examples) {
    out.push("### not read as meant", "");
    for (const e of report.examples) out.push(`- **${e.id}** ${e.read}`, `  - meant: ${e.meant}`);
  }
  return out.join("\n");
}
