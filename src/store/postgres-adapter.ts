/**
 * The one door from the product to the Postgres adapter (`memlane/postgres`): a dynamic import,
 * taken only when a spec names Postgres. Everything else in the product is importable without
 * loading pg, pg-boss or PGlite. The layering test allows this import and no other upward one.
 */
export type PostgresAdapter = typeof import("../adapters/postgres/index.js");

/** The Postgres adapter, loaded on first use. */
export function loadPostgresAdapter(): Promise<PostgresAdapter> {
  return import("../adapters/postgres/index.js");
}
