/**
 * CareCall's "Memory gold" baseline (§5.2.1) as TeaFarm can run it: the reply model is handed the
 * gold memory for the question instead of anything a strategy wrote or recalled. Our gold memory
 * is the exam's own record of the truth: the summary statements the exam writer cited as the
 * true fact's evidence (the lines whose source turns are the question's evidence), dated by their
 * sessions; when no line is cited, the true fact itself. Nothing is stored at session end.
 * The row bounds what the reply model and the judge reach when memory is right — the paper's
 * reading of its memory-gold row — and is not a memory mechanism.
 */
import type { RecallHit } from "../../../src/core/recall.js";
import type { Memory } from "../../../src/core/types.js";
import { composeReply } from "../../../src/strategies/kit/compose-reply.js";
import type { Strategy } from "../../../src/strategies/strategy.js";
import type { ExamQuestion, TeafarmExam } from "./exam.js";

/** The gold memory of one question, as recall hits (score 1, in session order). */
export function goldHits(exam: TeafarmExam, item: ExamQuestion): RecallHit[] {
  const evidence = new Set(item.evidence);
  const cited = exam.summaries.flatMap((s) =>
    s.lines
      .filter((l) => l.turns.some((t) => evidence.has(t)))
      .map((l) => ({ line: l, at: s.at, session: s.session })),
  );
  const last = exam.summaries.at(-1);
  const lines = cited.length
    ? cited
    : [
        {
          line: { about: item.about, text: item.fact, turns: item.evidence },
          at: last?.at ?? "",
          session: last?.session ?? "",
        },
      ];
  return lines.map(({ line, at, session }, i) => {
    const id = `gold_${item.id}_${i + 1}`;
    // Stored nowhere, so the hit carries its memory: one the exam's partner heard (recall is
    // private by default, and a reply's last check keeps only what its partners may hear).
    const memory: Memory = {
      id,
      tenant: "",
      agent: exam.agent,
      about: line.about,
      text: line.text,
      kind: "fact",
      strategy: "gold",
      observedAt: at,
      recordedAt: at,
      status: "active",
      invalidAt: null,
      sessionId: session || null,
      sourceTurns: line.turns,
      attributes: { audience: [exam.partner] },
    };
    return {
      kind: "memory",
      id,
      text: line.text,
      about: line.about,
      score: 1,
      observedAt: at,
      sessionId: session,
      sourceTurns: line.turns,
      explanation: { gold: 1, score: 1 },
      memory,
    };
  });
}

/** A strategy named "gold" whose recall is the question's gold memory; it writes nothing. */
export function goldMemoryStrategy(exam: TeafarmExam, item: ExamQuestion): Strategy {
  return {
    specificationVersion: "v1",
    name: "gold",
    description: "TeaFarm's memory-gold baseline: the reply sees the exam's gold memory for the question",
    async recall(ctx) {
      return { strategy: "gold", query: ctx.query, hits: goldHits(exam, item) };
    },
    compose: (ctx, recall) => composeReply(ctx, recall),
  };
}
