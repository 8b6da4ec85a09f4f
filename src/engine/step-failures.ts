/**
 * Steps whose answer could not be used, kept visible. The engine hands strategies a Cognition
 * that notes every StepFailure a run reports (one item of a batched step that took its fallback)
 * and, on a reply's path, turns a step's failure into its fallback value instead of an error, so
 * the person still gets a reply. Each noted failure becomes a failed STEP operation.
 */
import { type Cognition, type StepFailure, stepFailure } from "../cognition/cognition.js";
import { isMemlaneError } from "../core/errors.js";
import { emptyUsage, type Operation, type Scope } from "../core/types.js";
import { newOperation } from "./operations.js";

/** Errors a fallback stands in for: the model's answers never fit, or the model could not answer. */
const FALLS_BACK = new Set(["SCHEMA_MISMATCH", "MODEL_TIMEOUT", "MODEL_UNAVAILABLE"]);

/**
 * `cognition` with its failures noted in `failures`. With `fallBack` (a reply's path), a step
 * that has a fallback and fails for its model's sake returns the fallback value instead of
 * throwing; a caller's abort, bad input or anything unexpected still throws.
 */
export function notingFailures(
  cognition: Cognition,
  failures: StepFailure[],
  options: { fallBack: boolean },
): Cognition {
  return {
    specificationVersion: cognition.specificationVersion,
    name: cognition.name,
    async run(step, input, runOptions = {}) {
      try {
        const result = await cognition.run(step, input, runOptions);
        if (result.failures) failures.push(...result.failures);
        return result;
      } catch (error) {
        const usable =
          options.fallBack &&
          step.fallback &&
          !runOptions.signal?.aborted &&
          isMemlaneError(error) &&
          FALLS_BACK.has(error.code);
        if (!usable || !step.fallback) throw error;
        const failure = stepFailure(step, error, step.fallback.what, cognition.name);
        failures.push(failure);
        // The failed tries' cost is on the failure's operation, not counted again with the value.
        return { value: step.fallback.value(input), usage: emptyUsage(), model: cognition.name };
      }
    },
  };
}

/**
 * A failed STEP operation for one failure: the step, its attempts and cost, and what stood in for
 * it. `inputs.input` is kept when the failure can be run again (`retry` does).
 */
export function stepFailureOperation(
  scope: Scope,
  strategy: string,
  sessionId: string | null,
  at: string,
  failure: StepFailure,
): Operation {
  return newOperation(scope, strategy, failure.model, sessionId, at, {
    type: "STEP",
    status: "failed",
    inputs: {
      step: failure.step,
      stepVersion: failure.stepVersion,
      ...(failure.input === undefined ? {} : { input: failure.input }),
    },
    outputs: {
      step: failure.step,
      stepVersion: failure.stepVersion,
      attempts: failure.attempts,
      fallback: failure.fallback,
    },
    error: failure.error,
    usage: failure.usage,
    rationale: `the model's answer could not be used: ${failure.fallback} instead`,
  });
}
