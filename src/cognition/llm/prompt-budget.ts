/**
 * Prompts sized to the model's window: how many tokens a step's prompt may take (the window, less
 * room for the answer and a margin for the estimate's error), and a step's input cut into parts
 * whose prompts fit. Items too large to fit even alone are left out, and a prompt that cannot be
 * cut is sent with a warning: in both cases the caller gets a StepWarning to log and to keep.
 */
import type { StepWarning } from "../../core/types.js";
import { type ChatMessage, estimateMessageTokens } from "../../models/chat-model.js";
import type { PartBudget, Step } from "../step.js";

/** The token plan of one step for one window. */
export interface PromptBudget {
  contextWindow: number;
  /** Tokens kept for the answer: the step's `maxTokens`, else a quarter of the window up to 2,048. */
  answerTokens: number;
  /** Most tokens a prompt may take. */
  promptTokens: number;
}

/** Most tokens kept for an answer when a step sets no `maxTokens`. */
const DEFAULT_ANSWER_TOKENS = 2048;

/**
 * Share of the window kept free because the estimate (estimateTokens: characters by script) is
 * rough: tokenizers differ, and some texts take more tokens a character than it counts.
 */
const ESTIMATE_MARGIN = 0.1;

/**
 * The token plan of `step` in a window of `contextWindow` tokens: the answer's room (never more
 * than half the window), a tenth kept as the estimate's margin, and the rest for the prompt.
 */
export function promptBudget<I, O, A>(step: Step<I, O, A>, contextWindow: number): PromptBudget {
  const answerTokens = Math.min(
    step.maxTokens ?? Math.min(DEFAULT_ANSWER_TOKENS, Math.floor(contextWindow / 4)),
    Math.floor(contextWindow / 2),
  );
  const margin = Math.ceil(contextWindow * ESTIMATE_MARGIN);
  return { contextWindow, answerTokens, promptTokens: contextWindow - answerTokens - margin };
}

/** The estimated tokens of a list of messages, as the budget counts them. */
export function promptTokens(messages: ChatMessage[]): number {
  return estimateMessageTokens(messages);
}

/** The parts of a step's input in order, those left out marked, and what could not be sent as asked. */
export interface FittedParts<I> {
  parts: { part: I; leftOut: boolean }[];
  warnings: StepWarning[];
}

/**
 * `input` in the parts the step's batching makes (`size` items at most), each cut further until
 * its prompt fits `budget`. A part of one item still over it is left out of a batched step whose
 * batching says what a left-out part is worth (`StepBatching.leftOut`; a "left-out" warning
 * counts them); any other prompt over it is sent as it is, with an "over-window" warning, since
 * there is nothing to cut it into.
 */
export function fitParts<I, O, A>(
  step: Step<I, O, A>,
  input: I,
  size: number,
  budget: PromptBudget | null,
): FittedParts<I> {
  const batch = step.batch;
  if (!budget) return { parts: (batch ? batch.split(input, size) : [input]).map(sent), warnings: [] };
  const tokens = (part: I) => promptTokens(step.prompt(part));
  const warning = (kind: StepWarning["kind"], message: string, largest: number, items?: number) => ({
    step: step.name,
    kind,
    message,
    ...(items === undefined ? {} : { items }),
    promptTokens: largest,
    contextWindow: budget.contextWindow,
    answerTokens: budget.answerTokens,
  });
  const room = `the model's window of ${budget.contextWindow} tokens (${budget.answerTokens} kept for the answer)`;
  const parts: FittedParts<I>["parts"] = [];
  let leftOut = 0;
  let overLargest = 0;
  let outLargest = 0;
  const place = (part: I) => {
    const used = tokens(part);
    if (used <= budget.promptTokens) {
      parts.push(sent(part));
      return;
    }
    const items = batch?.count?.(part) ?? 1;
    // A batching that ignores the budget (a step of one's own) is cut in halves here instead.
    const halves = batch && items > 1 ? batch.split(part, Math.ceil(items / 2), partBudget) : [part];
    if (halves.length > 1) {
      for (const half of halves) place(half);
      return;
    }
    // Nothing that may be left out (no batching, no item, or no value for a missing one): the
    // prompt goes as it is, and the server may cut it.
    if (!batch?.leftOut || items === 0) {
      parts.push(sent(part));
      overLargest = Math.max(overLargest, used);
      return;
    }
    parts.push({ part, leftOut: true });
    leftOut += items;
    outLargest = Math.max(outLargest, used);
  };
  const partBudget: PartBudget<I> = { maxTokens: budget.promptTokens, tokens };
  for (const part of batch ? batch.split(input, size, partBudget) : [input]) place(part);
  const warnings: StepWarning[] = [];
  if (leftOut > 0)
    warnings.push(
      warning(
        "left-out",
        `Step "${step.name}" left out ${leftOut} item${leftOut === 1 ? "" : "s"} too large for ${room} even alone (largest prompt about ${outLargest} tokens)`,
        outLargest,
        leftOut,
      ),
    );
  if (overLargest > 0)
    warnings.push(
      warning(
        "over-window",
        `A prompt of step "${step.name}" takes about ${overLargest} tokens, more than ${room} leaves; it was sent whole, and the model server may cut it`,
        overLargest,
      ),
    );
  return { parts, warnings };
}

const sent = <I>(part: I) => ({ part, leftOut: false });
