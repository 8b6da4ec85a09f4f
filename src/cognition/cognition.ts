/**
 * The Cognition port, version 1: one method that runs any thinking step (step.ts). Two engines
 * implement it — `llm/` (the step's prompt, structured output, repair and retry, batching) and
 * `offline/` (the step's offline method over the bundled encoder and NLP) — and a user may bring
 * a third. Every run checks the step's input, says what it cost, and fails with a typed error
 * that names the step, so the engine can record the failed operation and retry it later.
 */
import { InvalidInputError, isMemlaneError } from "../core/errors.js";
import { checkSpecification, definePort } from "../core/specification.js";
import { addUsage, emptyUsage, type StepFailure, type StepWarning, type Usage } from "../core/types.js";
import type { Step } from "./step.js";

export type { StepFailure };

export interface CognitionResult<T> {
  value: T;
  usage: Usage;
  /** "offline" or the chat model that answered. */
  model: string;
  /**
   * What had to be left out or could not fit the model's window (absent when nothing): the
   * strategy keeps them on the step's operation as `outputs.warnings`.
   */
  warnings?: StepWarning[];
  /**
   * Parts of the input the model could not answer, whose place in `value` the step's `fallback`
   * holds (one item of a batched step, or the whole step on a path that must not fail). The
   * engine records each as a failed operation; absent when everything was answered.
   */
  failures?: StepFailure[];
}

export interface RunOptions {
  /** Cancels model calls in flight (a request that timed out, a closing engine). */
  signal?: AbortSignal;
}

export interface Cognition {
  /** The port's version; `checkCognition` refuses any other. */
  readonly specificationVersion: typeof COGNITION_SPECIFICATION.version;
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
  return checkSpecification(cognition, COGNITION_SPECIFICATION);
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

/**
 * Adds the step's name and version (and, when given, what the calls before the failure cost) to
 * an error's details — any error object, not only memlane's — so a failed operation says which
 * step failed and what it cost.
 */
export function tagStepError<I, O, A>(error: unknown, step: Step<I, O, A>, spent?: Usage): unknown {
  if (!error || typeof error !== "object") return error;
  const e = error as { details?: Record<string, unknown> };
  e.details ??= {};
  e.details.step = step.name;
  e.details.stepVersion = step.version;
  if (spent) e.details.usage = e.details.usage ? addUsage(spent, e.details.usage as Usage) : spent;
  return error;
}

/**
 * A StepFailure from an error `Cognition.run` threw (tagged with its step by `tagStepError`).
 * `input`: the part to run again, when it can be.
 */
export function stepFailure<I, O, A>(
  step: Step<I, O, A>,
  error: unknown,
  fallback: string,
  model: string,
  input?: unknown,
): StepFailure {
  const details = (isMemlaneError(error) ? error.details : {}) as { attempts?: unknown; usage?: Usage };
  return {
    step: step.name,
    stepVersion: step.version,
    fallback,
    ...(input === undefined ? {} : { input }),
    code: isMemlaneError(error) ? error.code : "UNEXPECTED",
    error: `${isMemlaneError(error) ? `${error.code}: ` : ""}${(error as Error)?.message ?? String(error)}`,
    attempts: details.attempts ?? null,
    usage: details.usage ?? emptyUsage(),
    model: isMemlaneError(error) && typeof error.details.model === "string" ? error.details.model : model,
  };
}

/** The Cognition port's specification: the version its implementations declare, the methods they have. */
export const COGNITION_SPECIFICATION = definePort("Cognition", "v1", ["run"]);
