/** Tiny flag reader for the bench scripts. */
export function flag(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

export function positional(args: string[], fallback: string): string {
  const first = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
  return first ?? fallback;
}

export const LOCOMO = new URL("../../../shared/data/locomo-dev/locomo-dev.json", import.meta.url).pathname;
