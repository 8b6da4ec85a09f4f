/**
 * The shapes of a TeaFarm exam that the exam writer (exam.ts) and its offline question writer
 * (offline-exam.ts) share: session summaries with the turns they rest on, and the questions.
 */

/** One statement of a session summary, with the transcript turns it rests on. */
export interface SummaryLine {
  about: string;
  text: string;
  turns: string[];
}

export interface SessionSummary {
  session: string;
  at: string;
  lines: SummaryLine[];
}

export interface ExamQuestion {
  id: string;
  /** Whose past it is about: the agent's or the partner's id. */
  about: string;
  question: string;
  /** The untrue assumption in the question. */
  premise: string;
  fact: string;
  answer: string;
  /** What the partner says before the question, in the same new session. */
  leadIn: string[];
  /** Transcript turn ids the true fact rests on. */
  evidence: string[];
  /** Transcript turn ids of the outdated state the question assumes, when the writer knows them. */
  stale: string[];
}
