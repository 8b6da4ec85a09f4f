/**
 * Where a step's window warnings go on its operation: `outputs.warnings` (core/types.ts,
 * StepWarning), so what the model's window made a step leave out stays visible in history.
 */
import type { StepWarning } from "../../core/types.js";

/** `outputs` with the step's warnings added as `warnings`, when the run had any. */
export function withWarnings<T extends object>(
  outputs: T,
  result: { warnings?: StepWarning[] },
): T & { warnings?: StepWarning[] } {
  return result.warnings?.length ? { ...outputs, warnings: result.warnings } : outputs;
}
