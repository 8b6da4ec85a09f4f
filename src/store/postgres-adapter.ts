/**
 * The one door from the product to the Postgres adapter (`memlane/postgres`): a dynamic import,
 * taken only when a spec names Postgres. Everything else in the product is importable without
 * loading pg, pg-boss or PGlite. The layering test allows this import and no other upward one.
 */
import { loadFeature } from "../core/optional-packages.js";

export type PostgresAdapter = typeof import("../adapters/postgres/index.js");

/**
 * The Postgres adapter, loaded on first use.
 * @throws {UnsupportedError} pg or pg-boss is not installed (the message says how to install them)
 */
export function loadPostgresAdapter(): Promise<PostgresAdapter> {
  return loadFeature("postgres", () => import("../adapters/postgres/index.js"));
}
