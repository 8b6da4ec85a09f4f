/**
 * Where the lab finds the data sets that are not in the repository (LoCoMo, MT-Bench+ and the
 * team's memory-ops set; see lab/README.md for their sources and licences): the folder that
 * `MEMLANE_SHARED_DATA` names, holding `locomo-dev/`, `mtbenchplus/` and `memory-ops/`. Nothing
 * in the repository points outside it: without the variable a command takes the file as an
 * argument, or says what it needs.
 */
import { join } from "node:path";
import { InvalidInputError } from "../src/core/errors.js";

/** A path inside the shared data folder, or undefined when MEMLANE_SHARED_DATA is not set. */
export function sharedDataPath(relative: string): string | undefined {
  const dir = process.env.MEMLANE_SHARED_DATA;
  return dir ? join(dir, relative) : undefined;
}

/**
 * A path inside the shared data folder.
 * @throws {InvalidInputError} MEMLANE_SHARED_DATA is not set: `instead` says what to give
 */
export function requireSharedData(relative: string, instead: string): string {
  const path = sharedDataPath(relative);
  if (path) return path;
  throw new InvalidInputError(
    `${relative} is not in the repository: give ${instead}, or set MEMLANE_SHARED_DATA to the folder that holds it`,
    { field: "file" },
  );
}
