/**
 * `memlane eval rules`: does memory keep the obvious promises? Each case is ingested once per
 * strategy into a fresh in-memory store (its sessions consolidated in order), and what memory holds
 * afterwards is checked against the case's matchers:
 *   - active: each matches at least one active memory;
 *   - once: each matches exactly one active memory (a fact said twice is one memory);
 *   - retired: each matches no active memory and at least one superseded one (the old state or the
 *     habit is kept as past, not lost and not current);
 *   - absent: each matches no memory at all (talk that is not a fact).
 * A case passes when every matcher holds. Separately, every active memory of every case is read
 * for talk a fact should not carry: a bare pronoun as its subject, a greeting, or the agent's name.
 */
import type { Cognition } from "../../../src/cognition/cognition.js";
import { displayName } from "../../../src/core/ids.js";
import type { Memory } from "../../../src/core/types.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { matches, RULE_CLASSES, type RuleCase, type RuleClass, type RuleSplit } from "./dataset.js";

export interface RuleCell {
  cases: number;
  passed: number;
}

export type RuleGroup = RuleClass | "all";

export interface RuleVerdict {
  id: string;
  class: RuleClass;
  style: string;
  split: RuleSplit;
  passed: boolean;
  /** What failed, one line each ("active: Pixel+greyhound matched no active memory"). */
  failures: string[];
  /** Active memories that carry talk, with why. */
  unclean: { text: string; why: string }[];
  /** The memories afterwards (text and status), for reading a failure. */
  memories: { text: string; status: string }[];
}

export interface RuleRow {
  strategy: string;
  cells: Record<RuleSplit | "all", Record<RuleGroup, RuleCell>>;
  /** Per style, over the test half, every class together. */
  styles: Record<string, RuleCell>;
  /** Per style, over every case (for a set held out whole). */
  stylesAll: Record<string, RuleCell>;
  /** Active memories read, and those that carry talk. */
  activeMemories: number;
  uncleanMemories: number;
  verdicts: RuleVerdict[];
}

export interface RuleReport {
  cases: number;
  rows: RuleRow[];
  elapsedMs: number;
}

export interface RulePorts {
  embedder: Embedder;
  /** A fresh cognition engine per strategy. */
  cognition: () => Cognition;
}

const describe = (m: { all: (string | string[])[]; none?: string[] }) =>
  m.all.map((w) => (Array.isArray(w) ? w.join("|") : w)).join("+") +
  (m.none?.length ? ` -${m.none.join("-")}` : "");

const PRONOUN_SUBJECT = /^(he|she|they|it|him|her|them|his|its|their)\b/i;
const GREETING = /^(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you)\b/i;

/** Why an active memory's text carries talk rather than a fact, or null. */
export function talkIn(text: string, agent: string): string | null {
  const t = text.trim();
  if (PRONOUN_SUBJECT.test(t)) return "bare pronoun as subject";
  if (GREETING.test(t)) return "greeting";
  const name = displayName(agent);
  if (name.length > 1 && new RegExp(`\\b${name}\\b`, "i").test(t)) return "names the agent";
  return null;
}

/** Checks one case's memories against its matchers. */
export function judgeCase(c: RuleCase, memories: Pick<Memory, "text" | "status">[]): RuleVerdict {
  const active = memories.filter((m) => m.status === "active");
  const retired = memories.filter((m) => m.status === "superseded");
  const failures: string[] = [];
  for (const m of c.expect.active)
    if (!active.some((x) => matches(x.text, m)))
      failures.push(`active: ${describe(m)} matched no active memory`);
  for (const m of c.expect.once) {
    const n = active.filter((x) => matches(x.text, m)).length;
    if (n !== 1) failures.push(`once: ${describe(m)} matched ${n} active memories`);
  }
  for (const m of c.expect.retired) {
    if (active.some((x) => matches(x.text, m))) failures.push(`retired: ${describe(m)} is still active`);
    else if (!retired.some((x) => matches(x.text, m)))
      failures.push(`retired: ${describe(m)} was never kept as past`);
  }
  for (const m of c.expect.absent)
    if (memories.some((x) => matches(x.text, m))) failures.push(`absent: ${describe(m)} is in a memory`);
  const unclean = active.flatMap((m) => {
    const why = talkIn(m.text, c.agent);
    return why ? [{ text: m.text, why }] : [];
  });
  return {
    id: c.id,
    class: c.class,
    style: c.style,
    split: c.split,
    passed: failures.length === 0,
    failures,
    unclean,
    memories: memories.map((m) => ({ text: m.text, status: m.status })),
  };
}

function emptyCells(): RuleRow["cells"] {
  const groups = () =>
    Object.fromEntries([...RULE_CLASSES, "all"].map((g) => [g, { cases: 0, passed: 0 }])) as Record<
      RuleGroup,
      RuleCell
    >;
  return { tune: groups(), test: groups(), all: groups() };
}

export async function evaluateRules(
  cases: RuleCase[],
  strategies: string[],
  ports: RulePorts,
  onProgress?: (p: { done: number; total: number; label: string }) => void,
): Promise<RuleReport> {
  const started = performance.now();
  const total = strategies.length * cases.length;
  let done = 0;
  const rows: RuleRow[] = [];
  for (const strategy of strategies) {
    const row: RuleRow = {
      strategy,
      cells: emptyCells(),
      styles: {},
      stylesAll: {},
      activeMemories: 0,
      uncleanMemories: 0,
      verdicts: [],
    };
    const cognition = ports.cognition();
    for (const c of cases) {
      onProgress?.({ done, total, label: `${strategy}: ${c.id}` });
      const mem = await openMemlane({
        store: ":memory:",
        embedder: ports.embedder,
        cognition,
        strategy,
        tenant: "eval",
      });
      let verdict: RuleVerdict;
      try {
        await mem.ingest(c.transcript);
        // Only what the strategy wrote about the partner: standing items and other kinds aside.
        const memories = (await mem.memories(c.agent, { status: "any", strategy })).filter(
          (m) => m.about === c.partner,
        );
        verdict = judgeCase(c, memories);
      } finally {
        await mem.close();
      }
      row.verdicts.push(verdict);
      row.activeMemories += verdict.memories.filter((m) => m.status === "active").length;
      row.uncleanMemories += verdict.unclean.length;
      for (const split of [c.split, "all"] as const)
        for (const group of [c.class, "all"] as const) {
          const cell = row.cells[split][group];
          cell.cases++;
          if (verdict.passed) cell.passed++;
        }
      for (const styles of c.split === "test" ? [row.styles, row.stylesAll] : [row.stylesAll]) {
        const cell = styles[c.style] ?? { cases: 0, passed: 0 };
        styles[c.style] = cell;
        cell.cases++;
        if (verdict.passed) cell.passed++;
      }
      done++;
    }
    rows.push(row);
  }
  onProgress?.({ done, total, label: "done" });
  return { cases: cases.length, rows, elapsedMs: performance.now() - started };
}
