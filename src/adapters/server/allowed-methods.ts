/**
 * Which methods a path answers, from the routes the app registered: a request with another method
 * on a known path is a 405 with `Allow`, not a 404 (RFC 9110 §15.5.6). Paths are matched on the
 * routes' own patterns (`/v1/agents/:agent/sessions`), so the list never drifts from the routes.
 */
import type { Context } from "hono";
import { errorResponse } from "./http-errors.js";

interface RouteLike {
  method: string;
  path: string;
}

const pattern = (path: string) =>
  new RegExp(
    `^${path
      .split("/")
      .map((part) =>
        part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/")}$`,
  );

/** The methods the app's routes answer at `path` (ALL and middleware excluded). */
export function allowedMethods(routes: readonly RouteLike[], path: string): string[] {
  const methods = new Set<string>();
  for (const r of routes)
    if (r.method !== "ALL" && !r.path.includes("*") && pattern(r.path).test(path)) methods.add(r.method);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/** The app's not-found answer: 405 with `Allow` when the path is known under other methods, else 404. */
export function notFoundOrNotAllowed(routes: () => readonly RouteLike[]) {
  return (c: Context): Response => {
    const allowed = allowedMethods(routes(), c.req.path);
    if (allowed.length === 0)
      return errorResponse(c, 404, "NOT_FOUND", `No route ${c.req.method} ${c.req.path}`);
    c.header("Allow", allowed.join(", "));
    return errorResponse(
      c,
      405,
      "METHOD_NOT_ALLOWED",
      `${c.req.path} answers ${allowed.join(", ")}, not ${c.req.method}`,
    );
  };
}
