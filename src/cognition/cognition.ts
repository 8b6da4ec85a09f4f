/**
 * The Cognition port, version 1: one method that runs any thinking step (step.ts). Two engines
 * implement it — `llm/` (the step's prompt, structured output, repair and retry, batching) and
 * `offline/` (the step's offline method over the bundled encoder and NLP) — and a user may bring
 * a third. Every run checks the step's input, says what it cost, and fails with a typed error
 * that names the step, so the engine can record the failed operation and retry it later.
 */
import { InvalidInputError, type MemlaneError, UnsupportedError } from "../core/errors.js";
import type { Usage } from "../core/types.js";
import type { Step } from "./step.js";

export interface CognitionResult<T> {
  value: T;
  usage: Usage;
  /** "offline" or the chat model that answered. */
  model: string;
}

export interface RunOptions {
  /** Cancels model calls in flight (a request that timed out, a closing engine). */
  signal?: AbortSignal;
}

export interface Cognition {
  /** The port's version; `checkCognition` refuses any other. */
  readonly specificationVersion: "v1";
  /** "offline" or the chat model's name. */
  readonly name: string;
  /**
   * Runs one step on one input. Throws InvalidInputError when the input does not fit the step,
   * and SchemaMismatchError (details: step, version, attempts, usage) when the model's answer
   * never fitted.
   */
  run<I, O, A>(step: Step<I, O, A>, input: I, options?: RunOptions): Promise<CognitionResult<O>>;
}

/** Refuses a Cognition written for another version of the port (vercel/ai's check). */
export function checkCognition(cognition: Cognition): Cognition {
  const version = (cognition as { specificationVersion?: unknown }).specificationVersion;
  if (version !== "v1" || typeof cognition.run !== "function")
    throw new UnsupportedError(
      `Cognition "${cognition.name}" implements specification ${String(version)}; this memlane needs "v1" with run(step, input)`,
      { port: "Cognition", version: String(version) },
    );
  return cognition;
}

/**
 * Checks a step's input with its schema; a strategy that passes bad input finds out at once. The
 * input itself runs on (not zod's copy), so fields a schema does not list are never stripped.
 */
export function checkStepInput<I, O, A>(step: Step<I, O, A>, input: I): I {
  const parsed = step.input.safeParse(input);
  if (parsed.success) return input;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError(
    `Input of step "${step.name}" is invalid at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    { step: step.name, field: issue?.path.join(".") ?? "" },
  );
}

/** Adds the step's name and version to an error's details, so a failed operation says which step failed. */
export function tagStepError<I, O, A>(error: unknown, step: Step<I, O, A>): unknown {
  const e = error as MemlaneError;
  if (e && typeof e === "object" && "details" in e && e.details && typeof e.details === "object")
    Object.assign(e.details, { step: step.name, stepVersion: step.version });
  return error;
}
