/**
 * The web inspector's static files at `/inspect/`: hand-written HTML, CSS and browser ES modules
 * from `web/inspector/`, and cytoscape's browser build from node_modules. The files are open (no
 * key), since they hold no data; the page asks for a key and sends it with every `/v1` call.
 *
 * Where the files live: tsc copies no non-TS files into dist/, so the assets sit in `web/` at the
 * package root (listed in package.json "files") and are found relative to this module. Both
 * `src/service/` (tsx, a fresh clone) and `dist/service/` (the build, the published package) are
 * two levels below the root, so one relative URL serves both without a copy step.
 */

import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import { missingPackage } from "../../core/optional-packages.js";
import type { Logger } from "../../engine/logger.js";
import { errorResponse } from "./http-errors.js";
import type { ServiceEnv } from "./route-kit.js";

/** The folder of the inspector's own files. */
export const INSPECTOR_DIR = fileURLToPath(new URL("../../../web/inspector/", import.meta.url));

/** The URL path the inspector is served under. */
export const INSPECTOR_PATH = "/inspect/";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

// The page loads only its own files and talks only to this server. cytoscape sets element
// styles from script, hence 'unsafe-inline' for styles (never for scripts).
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * Every file the inspector may serve, by its name under `/inspect/`. Requests are looked up in
 * this map and nothing else, so no path (`..`, encoded slashes, absolute paths) reaches the disk.
 */
export function inspectorAssets(dir = INSPECTOR_DIR): Map<string, string> {
  const assets = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile() && CONTENT_TYPES[extname(entry.name)]) assets.set(entry.name, join(dir, entry.name));
  // cytoscape draws the graph view; it is an optional package, resolved from this module
  // wherever npm put it. Without it the page still works, and the graph view says what to install.
  const cytoscapeMain = installedMain("cytoscape");
  if (cytoscapeMain)
    assets.set("vendor/cytoscape.mjs", join(dirname(cytoscapeMain), "cytoscape.esm.min.mjs"));
  return assets;
}

/**
 * The inspector's files, or none (with a warning) when they cannot be found: a package built
 * without `web/` still serves its API and MCP tools; only `/inspect/` answers 404.
 */
export function findInspectorAssets(logger: Pick<Logger, "warn">, dir = INSPECTOR_DIR): Map<string, string> {
  try {
    return inspectorAssets(dir);
  } catch (error) {
    logger.warn(`the web inspector is not available: ${(error as Error).message}`);
    return new Map();
  }
}

/** Serves the inspector at `/inspect/` (and redirects `/inspect` there, so relative URLs work). */
export function inspectorRoutes(app: Hono<ServiceEnv>, assets: Map<string, string>): void {
  const send = async (c: Context, name: string) => {
    const file = assets.get(name);
    if (!file) return errorResponse(c, 404, "NOT_FOUND", `No inspector file "${name}"`);
    const type = CONTENT_TYPES[extname(file)]!;
    c.header("Content-Type", type);
    c.header("X-Content-Type-Options", "nosniff");
    // Small files: always revalidate, so an upgraded memlane never runs with a stale script.
    c.header("Cache-Control", "no-cache");
    if (type.startsWith("text/html")) c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    return c.body(new Uint8Array(await readFile(file)));
  };
  app.get("/inspect", (c) => c.redirect(INSPECTOR_PATH, 301));
  app.get(INSPECTOR_PATH, (c) => send(c, "index.html"));
  app.get(`${INSPECTOR_PATH}*`, (c) => send(c, c.req.path.slice(INSPECTOR_PATH.length)));
}

/** A package's main file, or null when it is not installed. */
function installedMain(name: string): string | null {
  try {
    return createRequire(import.meta.url).resolve(name);
  } catch (error) {
    if (missingPackage(error, [name])) return null;
    throw error;
  }
}
