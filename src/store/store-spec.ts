/**
 * What a store spec names, read without opening anything: the product decides from the spec
 * alone whether it needs the Postgres adapter, and loads it only then (store/postgres-adapter.ts).
 */

/** True for `postgres://…` / `postgresql://…` (a server) and `pglite:<dir>` / `pglite:memory`. */
export function isPostgresSpec(spec: string): boolean {
  return /^(postgres|postgresql):\/\//.test(spec) || spec.startsWith("pglite:");
}

/** True for a `postgres://` or `postgresql://` URL (a server, not PGlite). */
export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//.test(spec);
}

/** A database URL with its password hidden, for messages and log lines; other specs as they are. */
export function withoutPassword(url: string): string {
  if (!/^postgres(ql)?:/i.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}
