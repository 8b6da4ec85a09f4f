/** Operation rows as the engine writes them: a fresh one, and the record of a failure. */
import { isMemlaneError } from "../core/errors.js";
import { newId } from "../core/ids.js";
import { emptyUsage, type Operation, type OperationType, type Scope } from "../core/types.js";

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
  const details = isMemlaneError(error) ? error.details : {};
  return newOperation(scope, strategy, model, sessionId, at, {
    type,
    status: "failed",
    inputs,
    outputs: {
      step: details.step ?? null,
      stepVersion: details.stepVersion ?? null,
      attempts: details.attempts ?? null,
    },
    error: errorText(error),
    usage: (details.usage as Operation["usage"]) ?? emptyUsage(),
  });
}
