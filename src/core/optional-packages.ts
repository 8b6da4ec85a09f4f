/**
 * The packages some features need and a plain install leaves out (they are optional peer
 * dependencies): the Postgres and PGlite stores, the server, the MCP server. A feature that finds
 * its package missing says which command installs it, at the door, instead of Node's bare
 * "Cannot find package".
 */
import { UnsupportedError } from "./errors.js";

/** The packages each optional feature needs, and what a reader calls the feature. */
export const OPTIONAL_FEATURES = {
  postgres: { feature: "A Postgres or PGlite store, or the Postgres job queue", packages: ["pg", "pg-boss"] },
  pglite: {
    feature: "A PGlite store",
    packages: ["pg", "pg-boss", "@electric-sql/pglite", "@electric-sql/pglite-pgvector"],
  },
  server: {
    feature: "The server (memlane serve, memlane/server)",
    packages: ["hono", "@hono/node-server", "@hono/zod-openapi"],
  },
  inspector: { feature: "The web inspector's graph view", packages: ["cytoscape"] },
  mcp: { feature: "The MCP server (memlane mcp, memlane/mcp)", packages: ["@modelcontextprotocol/sdk"] },
} as const satisfies Record<string, { feature: string; packages: readonly string[] }>;

export type OptionalFeature = keyof typeof OPTIONAL_FEATURES;

/** The package of `packages` an import failed to find, or null when it failed for another reason. */
export function missingPackage(error: unknown, packages: readonly string[]): string | null {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code !== "ERR_MODULE_NOT_FOUND" && e?.code !== "MODULE_NOT_FOUND") return null;
  const named = /Cannot find (?:package|module) '([^']+)'/.exec(String(e.message))?.[1];
  if (named === undefined) return null;
  return (
    packages.find((p) => named === p || named.startsWith(`${p}/`) || named.includes(`/node_modules/${p}/`)) ??
    null
  );
}

/** The error a feature gives when one of its packages is not installed. */
export function missingPackageError(
  feature: OptionalFeature,
  missing: string,
  cause?: unknown,
): UnsupportedError {
  const { feature: what, packages } = OPTIONAL_FEATURES[feature];
  const install = `npm install ${packages.join(" ")}`;
  return new UnsupportedError(
    `${what} needs the package "${missing}", which is not installed. Install it with: ${install}`,
    { feature, missing, install },
    cause,
  );
}

/**
 * Runs `load` (a dynamic import); when it fails for want of one of the feature's packages, the
 * error says which command installs them.
 * @throws {UnsupportedError} a package of the feature is not installed
 */
export async function loadFeature<T>(feature: OptionalFeature, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error, OPTIONAL_FEATURES[feature].packages);
    throw missing ? missingPackageError(feature, missing, error) : error;
  }
}
