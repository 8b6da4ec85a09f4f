/**
 * Does one partner's secret reach another? The leak scenarios (lab/data/privacy/leaks.jsonl,
 * written by a second hand): an owner tells the agent something private and something ordinary in
 * one session; in a later session another partner asks for the private thing by name. Per
 * strategy, the reply and everything recalled for it (hits, standing items, timelines) are
 * searched for the secret's words. Also asked: does the owner still hear their own secret (a
 * recall for them), and, under the agent's whole memory, is the ordinary fact found while the
 * secret stays out?
 */
import { readFileSync } from "node:fs";
import type { Recall } from "../../../src/core/recall.js";
import type { Memlane } from "../../../src/engine/memlane.js";

export interface LeakScenario {
  id: string;
  style: string;
  owner: string;
  owner_turns: string[];
  asker: string;
  question: string;
  secret_terms: string[];
  ordinary_terms: string[];
}

export interface LeakOutcome {
  id: string;
  style: string;
  strategy: string;
  /** No secret word in the asker's reply nor in what was recalled for it. */
  keptFromAsker: boolean;
  /** A recall for the owner finds a secret word (their private memory is theirs). */
  ownerHears: boolean;
  /** Under agent scope, no secret word is found … */
  keptInAgentScope: boolean;
  /** … and the ordinary fact is. */
  ordinaryInAgentScope: boolean;
}

export function loadLeaks(path: string): LeakScenario[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LeakScenario);
}

/** Every text a recall shows: hits, standing items, timeline steps and refinements. */
export function shownText(recall: Recall): string {
  return [
    ...recall.hits.map((h) => h.text),
    ...(recall.standing ?? []).map((h) => h.text),
    ...(recall.timelines ?? []).flatMap((t) => [...t.entries.map((e) => e.text), ...(t.refined ?? [])]),
  ].join("\n");
}

const says = (text: string, terms: string[]) =>
  terms.some((t) => text.toLowerCase().includes(t.toLowerCase()));

/** One scenario on a fresh engine of `open()`; the owner's session, then the asker's. */
export async function playLeak(
  open: () => Promise<Memlane>,
  strategy: string,
  c: LeakScenario,
): Promise<LeakOutcome> {
  const mem = await open();
  try {
    const a = await mem.session({ agent: "ava", partner: c.owner, at: "2024-03-01T10:00" });
    for (const text of c.owner_turns) await a.turn(c.owner, text);
    await (await a.close()).done;
    const b = await mem.session({ agent: "ava", partner: c.asker, at: "2024-03-05T10:00" });
    await b.turn(c.asker, c.question);
    const { text, recall } = await b.reply({ record: false });
    const forOwner = await mem.recall({ agent: "ava", about: c.owner, query: c.question });
    const whole = await mem.recall({ agent: "ava", scope: "agent", query: c.question });
    const ordinary = await mem.recall({ agent: "ava", scope: "agent", query: c.owner_turns.join(" ") });
    return {
      id: c.id,
      style: c.style,
      strategy,
      keptFromAsker: !says(`${text}\n${shownText(recall)}`, c.secret_terms),
      ownerHears: says(shownText(forOwner), c.secret_terms),
      keptInAgentScope: !says(shownText(whole), c.secret_terms),
      ordinaryInAgentScope: says(shownText(ordinary), c.ordinary_terms),
    };
  } finally {
    await mem.close();
  }
}

/** A Markdown table: per strategy, how many scenarios kept each promise. */
export function leaksMarkdown(outcomes: LeakOutcome[]): string {
  const strategies = [...new Set(outcomes.map((o) => o.strategy))];
  const count = (os: LeakOutcome[], key: keyof LeakOutcome) =>
    `${os.filter((o) => o[key]).length} / ${os.length}`;
  const rows = strategies.map((s) => {
    const os = outcomes.filter((o) => o.strategy === s);
    return `| ${s} | ${count(os, "keptFromAsker")} | ${count(os, "ownerHears")} | ${count(os, "keptInAgentScope")} | ${count(os, "ordinaryInAgentScope")} |`;
  });
  const styles = [...new Set(outcomes.map((o) => o.style))];
  const byStyle = styles.map((st) => {
    const os = outcomes.filter((o) => o.style === st);
    return `| ${st} | ${count(os, "keptFromAsker")} | ${count(os, "keptInAgentScope")} |`;
  });
  return [
    "| strategy | kept from the asker (reply and its recall) | the owner hears their secret | kept under agent scope | ordinary fact found under agent scope |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    "| style (all strategies) | kept from the asker | kept under agent scope |",
    "| --- | ---: | ---: |",
    ...byStyle,
  ].join("\n");
}
