/**
 * A thinking step as a value (the engine issue's first seam): its name and version, the zod
 * schemas of what goes in and what the model must answer, the prompt the LLM engine sends, and
 * the offline engine's way of doing the same thing. A strategy defines the steps it needs beside
 * itself (`strategies/<paper>/steps/`); `Cognition.run(step, input)` runs any of them, so adding a
 * paper never widens the Cognition port.
 */
import type { z } from "zod";
import type { ChatMessage } from "../models/chat-model.js";
import type { Embedder } from "../models/embedder.js";
import type { LearnedLinkModel } from "./offline/learned/link-model.js";
import type { LearnedPairModel } from "./offline/learned/pair-model.js";
import type { LearnedStandingModel } from "./offline/learned/standing-model.js";

/** What the offline engine lends a step: the sentence encoder and the trained offline models. */
export interface OfflineKit {
  embedder: Embedder;
  signal?: AbortSignal;
  /**
   * Trained models the offline methods use instead of the ones in data/models/ (null: use the
   * hand-written rules). Cross-validation passes models trained without the scored fold.
   */
  models?: LearnedModels;
}

/** Trained offline models by role; absent roles use the shipped model. */
export interface LearnedModels {
  pairOperator?: LearnedPairModel | null;
  relationLinker?: LearnedLinkModel | null;
  /** With it, the standing-instruction detector and its matching thresholds (lab cross-validation). */
  standing?: LearnedStandingModel | null;
}

/** How an input too large for one model call is cut into several and the answers joined. */
export interface StepBatching<I, O> {
  /** Most items per model call. */
  size: number;
  /** The input in parts of at most `size` items (one part when it is small enough). */
  split(input: I, size: number): I[];
  /** Items in an input (a part that fails can then be asked again in halves). */
  count?(input: I): number;
  /** One value from the parts' values, in the order of `split`. */
  join(values: O[], input: I): O;
}

export interface Step<I, O, A = O> {
  /** Stable identifier, "<strategy>.<step>" ("carecall.classify-pairs"); the schema name sent to models. */
  readonly name: string;
  /** Bumped whenever the prompt, schemas or offline method change meaning; kept on every operation. */
  readonly version: number;
  /** One line on what the step does. */
  readonly description: string;
  /** What the step accepts; checked before either engine runs it. */
  readonly input: z.ZodType<I>;
  /**
   * What the model must answer: a schema, or a function of the input when the answer's bounds
   * depend on it (turn numbers below the session's length, one decision per pair).
   */
  readonly output: z.ZodType<A> | ((input: I) => z.ZodType<A>);
  /** "json" (default): structured output with repair and retry; "text": free text, checked by `output`. */
  readonly format?: "json" | "text";
  /** Sampling temperature for the LLM engine (default 0: steps are judgements, not prose). */
  readonly temperature?: number;
  /** Most tokens the answer may take (LLM engine). */
  readonly maxTokens?: number;
  /** The messages the LLM engine sends. */
  prompt(input: I): ChatMessage[];
  /** The model's checked answer as the step's value (default: the answer as it is). */
  decode?(answer: A, input: I): O;
  /** The same step without a language model. */
  offline(input: I, kit: OfflineKit): O | Promise<O>;
  /** Present when one call cannot take every item (pair judgements): the LLM engine batches. */
  readonly batch?: StepBatching<I, O>;
  /**
   * Reads an answer that holds no usable JSON, in the form a model naturally gives it (MemoChat's
   * "2#5", a "Rationale: … Reply: …" text); what it returns is checked by `output` like any
   * answer. Undefined when the text cannot be read that way either.
   */
  prose?(text: string, input: I): unknown;
  /**
   * What the step's value is when the model's answer cannot be used after the retries: a value
   * that loses nothing (no memo chosen, the timeline as it was, a pair kept apart). The LLM engine
   * uses it for one item of a batched step, the engine for steps on a reply's path; either way
   * the failure is recorded as a failed operation. `what` says in a few words what it stands for.
   */
  readonly fallback?: { what: string; value(input: I): O };
}

/** Every step defined in this process, by name: `retry` finds a failed item's step here. */
const defined = new Map<string, Step<unknown, unknown, unknown>>();

/**
 * A step with its types inferred from its schemas; returns the step unchanged. The step is also
 * found by name afterwards (`definedStep`), so a failed item recorded with its input can be run
 * again later.
 */
export function defineStep<I, O, A = O>(step: Step<I, O, A>): Step<I, O, A> {
  defined.set(step.name, step as unknown as Step<unknown, unknown, unknown>);
  return step;
}

/** The step defined under `name` in this process, if any. */
export function definedStep(name: string): Step<unknown, unknown, unknown> | undefined {
  return defined.get(name);
}

/** Batching for steps whose input is `{ ...shared, [key]: item[] }` and whose value is one entry per item. */
export function batchItems<I extends Record<K, unknown[]>, K extends keyof I, V>(
  key: K,
  size: number,
  bound?: { maxChars: number; chars: (item: I[K][number]) => number },
): StepBatching<I, V[]> {
  return {
    size,
    split(input, n) {
      const items = input[key] as I[K][number][];
      const parts: I[] = [];
      let part: I[K][number][] = [];
      let used = 0;
      // At most `n` items a part, and with `bound` at most `maxChars` of them as the prompt shows
      // them (a part always takes one item, however long).
      for (const item of items) {
        const chars = bound ? bound.chars(item) : 0;
        if (part.length > 0 && (part.length >= n || (bound && used + chars > bound.maxChars))) {
          parts.push({ ...input, [key]: part });
          part = [];
          used = 0;
        }
        part.push(item);
        used += chars;
      }
      if (part.length > 0 || parts.length === 0) parts.push({ ...input, [key]: part });
      return parts.length === 1 ? [input] : parts;
    },
    join: (values) => values.flat(),
    count: (input) => input[key].length,
  };
}

/** The output schema of a step for one input. */
export function outputSchema<I, O, A>(step: Step<I, O, A>, input: I): z.ZodType<A> {
  return typeof step.output === "function" ? step.output(input) : step.output;
}
