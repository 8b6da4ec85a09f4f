/**
 * LoCoMo for the QA lab: the conversations as memlane reads them (src/engine/ingest/formats/locomo.ts),
 * and their questions. Categories 1-4 (multi-hop, temporal, open-domain, single-hop) make the
 * overall figure; category 5, the adversarial questions about things never said, is graded as an
 * abstention (a right answer says it was not mentioned) and reported apart. Evidence ids ("D1:3")
 * become the transcript's turn ids. A question is asked the day after the last session.
 */
import { InvalidInputError } from "../../../../src/core/errors.js";
import { readLocomo } from "../../../../src/engine/ingest/formats/locomo.js";
import type { QaSet } from "../qa-set.js";

/** LoCoMo's category numbers and the names the report gives them. */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

/** Reads a LoCoMo file (a list of samples) into conversations and questions. */
export function readLocomoQa(raw: unknown, options: { agent?: string } = {}): QaSet {
  const notes: string[] = [];
  const conversations = readLocomo(raw, options).map((sample) => {
    const { transcript } = sample;
    const turnIds = new Set(transcript.sessions.flatMap((s) => s.turns.map((t) => t.id)));
    const last = transcript.sessions.at(-1)!.at;
    const askedAt = new Date(Date.parse(last) + 24 * 3600 * 1000).toISOString();
    const questions = sample.qa.map((q, i) => {
      const id = `${sample.sampleId}:q${i + 1}`;
      const category = LOCOMO_CATEGORIES[q.category];
      if (!category)
        throw new InvalidInputError(
          `${id}: category ${JSON.stringify(q.category)} is not one of LoCoMo's 1-5`,
        );
      const evidence = evidenceIds(q.evidence).map((e) => `${sample.sampleId}:${e}`);
      const dangling = evidence.filter((e) => !turnIds.has(e));
      if (dangling.length)
        notes.push(`${id}: evidence ${dangling.join(", ")} names no turn (kept; never found)`);
      const adversarial = q.category === 5;
      // Category 5 carries the misleading answer apart; its right answer is that it was never said.
      const answer = adversarial ? "Not mentioned in the conversation." : String(q.answer ?? "");
      if (!adversarial && q.answer === undefined)
        notes.push(`${id}: no answer in the file (graded against "")`);
      return {
        id,
        category,
        ...(adversarial ? { apart: true, abstention: true } : {}),
        question: q.question,
        answer,
        askedAt,
        evidence,
      };
    });
    return { id: sample.sampleId, transcript, questions };
  });
  return { format: "locomo", conversations, notes };
}

/** "D1:3", "D1:3; D2:4" or a list of them: the dia ids. */
function evidenceIds(raw: unknown): string[] {
  const parts = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((r) =>
    String(r)
      .split(/[;,\s]+/)
      .filter(Boolean),
  );
  return [...new Set(parts)];
}
