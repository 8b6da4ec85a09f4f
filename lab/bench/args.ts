/** Tiny flag reader for the bench scripts. */
import { sharedDataPath } from "../shared-data.js";

export function flag(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

export function positional(args: string[], fallback: string): string {
  const first = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
  return first ?? fallback;
}

/** LoCoMo's dev conversations in MEMLANE_SHARED_DATA, the default file of the benches that read one. */
export const LOCOMO =
  sharedDataPath("locomo-dev/locomo-dev.json") ?? "locomo-dev.json (set MEMLANE_SHARED_DATA, or give a file)";
