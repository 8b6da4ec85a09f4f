/**
 * What `memlane eval qa` reads, whatever the file's format: conversations, each a memlane
 * transcript with the questions asked about it. A reader (readers/) turns LoCoMo, LongMemEval or
 * BEAM files into this shape; the runner never looks at a format again.
 */
import type { Transcript } from "../../../src/engine/ingest/formats/transcript.js";

/** One question about one conversation. */
export interface QaQuestion {
  /** Unique in the file: the cache and the errata file key on it. */
  id: string;
  /** The category (LoCoMo), question type (LongMemEval) or ability (BEAM) the report groups by. */
  category: string;
  /** Reported apart and left out of the overall figure (LoCoMo's adversarial category 5). */
  apart?: boolean;
  question: string;
  /** The gold answer, as text. */
  answer: string;
  /**
   * The question cannot be answered from the conversation (LongMemEval `_abs`, LoCoMo category
   * 5): a right answer says so rather than giving a fact.
   */
  abstention?: boolean;
  /**
   * A grading rule beyond the generous default: `preference` (the gold describes what a good
   * answer does), `latest` (the answer may mention an old value if it gives the new one), `dates`
   * (a count of days, weeks or months may be off by one).
   */
  rule?: "preference" | "latest" | "dates";
  /** Points a right answer must cover (BEAM's rubric); when given, grading is against them. */
  rubric?: string[];
  /** When the question is asked (ISO time): recall and the answer prompt are dated then. */
  askedAt?: string;
  /** Ids of the transcript's turns that hold the answer (empty when the format gives none). */
  evidence: string[];
}

/** One conversation and its questions. */
export interface QaConversation {
  id: string;
  transcript: Transcript;
  questions: QaQuestion[];
}

/** A whole file, read. */
export interface QaSet {
  /** "locomo" | "longmemeval" | "beam". */
  format: string;
  conversations: QaConversation[];
  /** Things the reader skipped or repaired, for the report (never silently dropped). */
  notes: string[];
}
