/**
 * Scope affinity on the wire (core/replica-share.ts). Every `/v1` answer about one agent names
 * its scope's routing key in `Memlane-Scope`, so a client can send it back on its requests and a
 * load balancer can hash it. A replica given its share (`memlane serve --replica 1/2`) also says
 * which replica answered (`Memlane-Replica`) and which one is the scope's home (`Memlane-Home`):
 * when they differ, the request was answered away from home (cold, unless this replica had room
 * for the scope), which is correct but slower.
 *
 * The request's own `Memlane-Scope` is never trusted: the tenant comes from the API key and the
 * agent from the path or the body, as for every other route.
 */
import type { MiddlewareHandler } from "hono";
import {
  formatReplicaShare,
  homeOf,
  type ReplicaShare,
  SCOPE_HEADER,
  scopeRoute,
} from "../../core/replica-share.js";
import type { ServiceEnv } from "./route-kit.js";

/** The header naming the replica that answered, as `index/count`. */
export const REPLICA_HEADER = "Memlane-Replica";
/** The header naming the replica that is home to the request's scope, as `index/count`. */
export const HOME_HEADER = "Memlane-Home";

/**
 * Sets the affinity headers on every answer of the routes below it, once the handler has run
 * (the agent of a body is known only once the route has validated it).
 */
export function affinityHeaders(replica: ReplicaShare | null): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    await next();
    if (replica) c.res.headers.set(REPLICA_HEADER, formatReplicaShare(replica));
    const agent = agentOfPath(c.req.path) ?? agentOfBody(c.req as unknown as Validated);
    const mem = c.var.mem;
    if (agent === null || !mem) return;
    const route = scopeRoute({ tenant: mem.tenantId, agent });
    c.res.headers.set(SCOPE_HEADER, route);
    if (replica) c.res.headers.set(HOME_HEADER, `${homeOf(route, replica.of)}/${replica.of}`);
  };
}

/** The agent of `/v1/agents/{agent}/…`, decoded, or null for a path that names none. */
export function agentOfPath(path: string): string | null {
  const match = /^\/v1\/agents\/([^/]+)/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/** What the request validator leaves on the request: the body it accepted. */
interface Validated {
  valid(target: "json"): unknown;
}

/** The one agent a validated JSON body names at its top (a session, a recall, a forget), or null. */
function agentOfBody(req: Validated): string | null {
  let body: unknown;
  try {
    body = req.valid("json");
  } catch {
    return null;
  }
  const agent = (body as { agent?: unknown } | undefined)?.agent;
  return typeof agent === "string" ? agent : null;
}
