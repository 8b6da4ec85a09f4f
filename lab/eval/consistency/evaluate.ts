/**
 * `memlane eval consistency`: how tidy each strategy keeps memory (CREEM §4.3.2, with our judge).
 * Every transcript is ingested by each strategy; after each session we count active memories,
 * and at the end we look at every pair of active memories about the same person:
 *   - near-duplicates: cosine of the two sentences at or above 0.9 (the bundled encoder);
 *   - judged contradictory: the pair judge (`carecall.classify-pairs`, older memory vs newer one)
 *     answers REPLACE, DELETE or FUSION — one of the two is outdated or conflicts with the other.
 * The paper measures contradiction with an NLI model (RoBERTa-MNLI); no engine here has one, so
 * the judge is the cognition engine's pair operator (offline: CareCall's rules; llm: the model).
 * This is a proxy and is reported as such, never as NLI.
 */
import type { Cognition } from "../../../src/cognition/cognition.js";
import type { Memory } from "../../../src/core/types.js";
import { cosine } from "../../../src/core/vector.js";
import type { Transcript } from "../../../src/engine/ingest/formats/transcript.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { classifyPairsStep } from "../../../src/strategies/carecall/steps/classify-pairs.js";

/** Cosine at which two memory sentences count as saying the same thing. */
export const DUPLICATE_COSINE = 0.9;

export interface ConsistencyRow {
  strategy: string;
  /** Active memories after each session, summed over transcripts (index = session number - 1). */
  activeBySession: number[];
  active: number;
  superseded: number;
  pairs: number;
  duplicates: number;
  contradictory: number;
  judge: string;
}

export async function evaluateConsistency(
  transcripts: Transcript[],
  strategies: string[],
  ports: { embedder: Embedder; cognition: () => Cognition },
  onProgress?: (line: string) => void,
): Promise<ConsistencyRow[]> {
  const rows: ConsistencyRow[] = [];
  for (const strategy of strategies) {
    const cognition = ports.cognition();
    const row: ConsistencyRow = {
      strategy,
      activeBySession: [],
      active: 0,
      superseded: 0,
      pairs: 0,
      duplicates: 0,
      contradictory: 0,
      judge: `${classifyPairsStep.name} (${cognition.name})`,
    };
    for (const t of transcripts) {
      onProgress?.(`${strategy}: ${t.agent}, ${t.sessions.length} sessions`);
      const mem = await openMemlane({
        store: ":memory:",
        embedder: ports.embedder,
        cognition,
        strategy,
        tenant: "eval",
      });
      let session = 0;
      await mem.ingest(t, {
        onProgress: () => {
          session++;
        },
      });
      // Active memories after each session: replayed from each memory's life span.
      const all = await mem.memories(t.agent, { status: "any" });
      t.sessions.forEach((_, i) => {
        const end = t.sessions[i + 1]?.at ?? "9999";
        const alive = all.filter(
          (m) => m.observedAt < end && (m.invalidAt === null || m.invalidAt >= end),
        ).length;
        row.activeBySession[i] = (row.activeBySession[i] ?? 0) + alive;
      });
      const active = all.filter((m) => m.status === "active");
      row.active += active.length;
      row.superseded += all.length - active.length;
      const judged = await judgePairs(active, ports.embedder, cognition);
      row.pairs += judged.pairs;
      row.duplicates += judged.duplicates;
      row.contradictory += judged.contradictory;
      await mem.close();
      if (session === 0) onProgress?.(`${strategy}: ${t.agent} had no sessions`);
    }
    rows.push(row);
  }
  return rows;
}

/** Every pair of active memories about the same person: near-duplicates and judged contradictions. */
async function judgePairs(
  active: Memory[],
  embedder: Embedder,
  cognition: Cognition,
): Promise<{ pairs: number; duplicates: number; contradictory: number }> {
  const vectors = await embedder.embed(active.map((m) => m.text));
  const index = new Map(active.map((m, i) => [m.id, vectors[i]!]));
  let pairs = 0;
  let duplicates = 0;
  let contradictory = 0;
  const bySubject = new Map<string, Memory[]>();
  for (const m of active) bySubject.set(m.about, [...(bySubject.get(m.about) ?? []), m]);
  for (const [about, list] of bySubject) {
    const sorted = [...list].sort((a, b) => (a.observedAt < b.observedAt ? -1 : 1));
    const judged: { memory: string; summary: string }[] = [];
    for (let i = 0; i < sorted.length; i++)
      for (let j = i + 1; j < sorted.length; j++) {
        pairs++;
        if (cosine(index.get(sorted[i]!.id)!, index.get(sorted[j]!.id)!) >= DUPLICATE_COSINE) duplicates++;
        judged.push({ memory: sorted[i]!.text, summary: sorted[j]!.text });
      }
    if (judged.length === 0) continue;
    const result = await cognition.run(classifyPairsStep, { about, pairs: judged, fusion: true });
    contradictory += result.value.filter(
      (d) => d.label === "REPLACE" || d.label === "DELETE" || d.label === "FUSION",
    ).length;
  }
  return { pairs, duplicates, contradictory };
}

export function consistencyMarkdown(rows: ConsistencyRow[]): string {
  const pct = (n: number, of: number) => (of ? ((100 * n) / of).toFixed(1) : "–");
  const sessions = Math.max(...rows.map((r) => r.activeBySession.length), 0);
  const head = Array.from({ length: Math.min(sessions, 6) }, (_, i) => `s${i + 1}`);
  const lines = [
    `| strategy | active | superseded | pairs | near-duplicate % | judged contradictory % | active after ${head.join(", ")} |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows.map(
      (r) =>
        `| ${r.strategy} | ${r.active} | ${r.superseded} | ${r.pairs} | ${pct(r.duplicates, r.pairs)} | ${pct(r.contradictory, r.pairs)} | ${r.activeBySession.slice(0, head.length).join(", ")} |`,
    ),
    "",
    `Judge: ${rows[0]?.judge ?? "–"} — a pair operator, not an NLI model: a proxy for the paper's contradiction level.`,
    `Near-duplicate: cosine ≥ ${DUPLICATE_COSINE} with the same embedder.`,
  ];
  return lines.join("\n");
}
