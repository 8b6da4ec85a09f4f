/**
 * The shapes MemoChat's two steps and their offline methods share: an option the chooser is shown
 * and what it chose (memochat.choose-topics), a buffer line and a memo entry (memochat.write-memo).
 * They live apart from both so that a step and its offline method import them, not each other.
 */

export interface TopicOption {
  /** Its number in the list, from 1. */
  n: number;
  topic: string;
  summary: string;
  /** The none-of-the-others option. */
  none?: boolean;
  /** When the entry's lines were said (conversation time), shown so relative times can be read. */
  at?: string;
}

export interface ChooseTopicsValue {
  /** Numbers of the chosen entries (none-of-the-others and invalid numbers left out), in order. */
  chosen: number[];
  /** What the answer named that chose nothing: none-of-the-others, or numbers not in the list. */
  ignored: number[];
  /** Offline only: each option's score, by option number. */
  scores?: Record<number, number>;
}

/** One buffer line as the step sees it. */
export interface MemoLine {
  speaker: string;
  text: string;
  /** Text memlane wrote itself (a reply): part of the range, never the offline summary's source. */
  generated?: boolean;
  /** When it was said (conversation time): the prompt dates the lines, so "yesterday" can be resolved. */
  at?: string;
}

export interface MemoEntry {
  topic: string;
  summary: string;
  /** First and last line of the entry's range, 1-based and inclusive. */
  start: number;
  end: number;
}
