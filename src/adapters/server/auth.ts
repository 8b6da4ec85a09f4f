/** The key check in front of every `/v1` route: the request's tenant comes from its key only. */
import type { MiddlewareHandler } from "hono";
import type { Memlane } from "../../engine/memlane.js";
import type { KeyStore } from "../../store/key-store.js";
import { tenantOfKey } from "./api-keys.js";
import { errorResponse } from "./http-errors.js";
import type { ServiceEnv } from "./route-kit.js";

/**
 * Answers 401 (reading nothing, not even the body) unless the request carries
 * `Authorization: Bearer <key>` with a working key; otherwise sets `c.var.mem` to the engine's
 * view of the key's tenant.
 */
export function requireApiKey(keys: KeyStore, mem: Memlane): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const tenant = match ? await tenantOfKey(keys, match[1]!) : null;
    if (tenant === null) {
      c.header("WWW-Authenticate", 'Bearer realm="memlane"');
      return errorResponse(
        c,
        401,
        "UNAUTHORIZED",
        match
          ? "The API key is unknown, wrong or revoked"
          : "An API key is needed: Authorization: Bearer <key>",
      );
    }
    c.set("mem", mem.tenant(tenant));
    await next();
  };
}
