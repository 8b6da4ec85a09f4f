/** Operation rows as the engine writes them: a fresh one, and the record of a failure. */
import { isMemlaneError } from "../core/errors.js";
import { newId } from "../core/ids.js";
import { emptyUsage, type Operation, type OperationType, type Scope, type Usage } from "../core/types.js";

export function newOperation(
  scope: Scope,
  strategy: string,
  model: string,
  sessionId: string | null,
  at: string,
  fields: Pick<Operation, "type"> & Partial<Operation>,
): Operation {
  return {
    id: newId("op"),
    tenant: scope.tenant,
    agent: scope.agent,
    status: "done",
    strategy,
    model,
    sessionId,
    memoryIds: [],
    inputs: null,
    outputs: null,
    rationale: null,
    error: null,
    usage: emptyUsage(),
    at,
    recordedAt: new Date().toISOString(),
    ...fields,
  };
}

/** "CODE: message" of any thrown value, as operations and jobs store it. */
export function errorText(error: unknown): string {
  return `${isMemlaneError(error) ? `${error.code}: ` : ""}${(error as Error)?.message ?? String(error)}`;
}

/** The details of a failure worth keeping: the step that failed (any error tagged by Cognition.run) and the model's attempts. */
export function failureOutputs(error: unknown): { step: unknown; stepVersion: unknown; attempts: unknown } {
  const details = detailsOf(error);
  return {
    step: details.step ?? null,
    stepVersion: details.stepVersion ?? null,
    attempts: details.attempts ?? null,
  };
}

/** What the failed tries cost, when the error says. */
export function failureUsage(error: unknown): Usage {
  return (detailsOf(error).usage as Usage | undefined) ?? emptyUsage();
}

function detailsOf(error: unknown): Record<string, unknown> {
  const details = (error as { details?: unknown } | null)?.details;
  return details && typeof details === "object" ? (details as Record<string, unknown>) : {};
}

/**
 * A failed operation holding what is needed to run it again: its inputs, the step that failed
 * and the model's attempts (from a SchemaMismatchError's details), and what the tries cost.
 */
export function failedOperation(
  scope: Scope,
  type: OperationType,
  strategy: string,
  model: string,
  sessionId: string,
  at: string,
  inputs: unknown,
  error: unknown,
): Operation {
  return newOperation(scope, strategy, model, sessionId, at, {
    type,
    status: "failed",
    inputs,
    outputs: failureOutputs(error),
    error: errorText(error),
    usage: failureUsage(error),
  });
}
