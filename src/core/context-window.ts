/**
 * A chat model's window: the tokens it holds at once, prompt and answer. The check lives in core
 * so that the command line can refuse a bad `--model-context` without loading any model code.
 */
import { InvalidInputError } from "./errors.js";

/** The smallest window accepted: less holds no step's instructions. */
export const MIN_CONTEXT_WINDOW = 256;

/** `value` when it is a whole number of tokens of at least 256, else an InvalidInputError naming `field`. */
export function checkContextWindow(value: unknown, field = "contextWindow"): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < MIN_CONTEXT_WINDOW)
    throw new InvalidInputError(
      `${field} must be a whole number of tokens of at least ${MIN_CONTEXT_WINDOW}, not ${JSON.stringify(value)}`,
      { field },
    );
  return value;
}
