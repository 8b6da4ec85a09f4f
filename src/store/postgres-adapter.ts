/**
 * The one door from the product to the Postgres adapter (`memlane/postgres`): a dynamic import,
 * taken only when a spec names Postgres. Everything else in the product is importable without
 * loading pg, pg-boss or PGlite. The layering test allows this import and no other upward one.
 */
import { loadFeature } from "../core/optional-packages.js";

export type PostgresAdapter = typeof import("../adapters/postgres/index.js");

/**
 * The Postgres adapter, loaded on first use; `spec` says which store it is for, so a PGlite
 * store's message names every package PGlite needs at once.
 * @throws {UnsupportedError} pg or pg-boss is not installed (the message says how to install them)
 */
export function loadPostgresAdapter(spec?: string): Promise<PostgresAdapter> {
  return loadFeature(
    spec?.startsWith("pglite:") ? "pglite" : "postgres",
    () => import("../adapters/postgres/index.js"),
  );
}
