/** The rule every store applies before writing: a batch holds rows of its own scope only. */
import { InvalidInputError } from "../core/errors.js";
import type { Scope } from "../core/types.js";
import type { WriteBatch } from "./memory-store.js";

/** @throws {InvalidInputError} a row of the batch names another tenant or agent */
export function checkBatchScope(scope: Scope, batch: WriteBatch): void {
  const rows: { tenant: string; agent: string }[] = [
    ...(batch.sessions ?? []),
    ...(batch.turns ?? []),
    ...(batch.memories ?? []),
    ...(batch.edges ?? []),
    ...(batch.operations ?? []),
  ];
  for (const row of rows)
    if (row.tenant !== scope.tenant || row.agent !== scope.agent)
      throw new InvalidInputError(
        `A row of ${row.tenant}/${row.agent} cannot be written in scope ${scope.tenant}/${scope.agent}`,
      );
}
