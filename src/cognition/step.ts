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

/**
 * The most tokens a part's prompt may take, and how to count them (the LLM engine's estimate of
 * the messages `prompt(part)` makes): batching by the model's window rather than by item count.
 */
export interface PartBudget<I> {
  maxTokens: number;
  tokens(part: I): number;
}

/** How an input too large for one model call is cut into several and the answers joined. */
export interface StepBatching<I, O> {
  /** Most items per model call (Infinity: as many as the model's window takes). */
  size: number;
  /**
   * The input in parts of at most `size` items (one part when it is small enough), and with
   * `budget` parts whose prompts fit it; an item too large for the budget alone is a part of its
   * own, which the engine leaves out.
   */
  split(input: I, size: number, budget?: PartBudget<I>): I[];
  /** Items in an input (a part that fails can then be asked again in halves). */
  count?(input: I): number;
  /** One value from the parts' values, in the order of `split`. */
  join(values: O[], input: I): O;
  /**
   * The value of a part left out because even alone it is too large for the model's window (a
   * neutral answer: no statements, no link). Without it such a part is sent as it is.
   */
  leftOut?(part: I): O;
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
  /** The value of an item left out as too large for the model's window (absent: it is sent). */
  leftOut?: (item: I[K][number]) => V,
): StepBatching<I, V[]> {
  type Item = I[K][number];
  const partOf = (input: I, items: Item[]): I => ({ ...input, [key]: items });
  return {
    size,
    split(input, n, budget) {
      const items = input[key] as Item[];
      // An item's share of a prompt: the prompt with it alone, less the prompt with none.
      const base = budget ? budget.tokens(partOf(input, [])) : 0;
      const cost = (item: Item) => (budget ? budget.tokens(partOf(input, [item])) - base : 0);
      const parts: I[] = [];
      let part: Item[] = [];
      let used = 0;
      let tokens = base;
      const close = () => {
        // The estimate adds items up; the part's own prompt decides, and items it cannot take
        // go back to the queue (a part always keeps one).
        const back: Item[] = [];
        while (budget && part.length > 1 && budget.tokens(partOf(input, part)) > budget.maxTokens)
          back.unshift(part.pop() as Item);
        parts.push(partOf(input, part));
        part = [];
        used = 0;
        tokens = base;
        return back;
      };
      // At most `n` items a part, with `bound` at most `maxChars` of them as the prompt shows
      // them, and with `budget` a prompt within its tokens (a part always takes one item).
      const queue = [...items];
      for (;;) {
        while (queue.length > 0) {
          const item = queue[0] as Item;
          const chars = bound ? bound.chars(item) : 0;
          const more = budget ? cost(item) : 0;
          const full =
            part.length >= n ||
            (bound !== undefined && used + chars > bound.maxChars) ||
            (budget !== undefined && tokens + more > budget.maxTokens);
          if (part.length > 0 && full) {
            queue.unshift(...close());
            continue;
          }
          queue.shift();
          part.push(item);
          used += chars;
          tokens += more;
        }
        if (part.length === 0) break;
        queue.push(...close());
        if (queue.length === 0) break;
      }
      if (parts.length === 0) parts.push(partOf(input, []));
      return parts.length === 1 ? [input] : parts;
    },
    join: (values) => values.flat(),
    count: (input) => input[key].length,
    ...(leftOut ? { leftOut: (part: I) => (part[key] as Item[]).map(leftOut) } : {}),
  };
}

/**
 * Batching for a step that takes its whole input in one call when the model's window holds it
 * (a session to summarize) and is cut into consecutive parts only when it does not. A part whose
 * answer does not fit is not asked again in halves: that would change the task, not the load.
 */
export function chunkItems<I extends Record<K, unknown[]>, K extends keyof I, V>(
  key: K,
): StepBatching<I, V[]> {
  const { split, join } = batchItems<I, K, V>(key, Number.POSITIVE_INFINITY);
  // A part left out gives nothing: the value joins what each part found, with no slot per item.
  return { size: Number.POSITIVE_INFINITY, split, join, leftOut: () => [] };
}

/** The output schema of a step for one input. */
export function outputSchema<I, O, A>(step: Step<I, O, A>, input: I): z.ZodType<A> {
  return typeof step.output === "function" ? step.output(input) : step.output;
}
