/** What every route file shares: the context's variables and the building blocks of a route. */
import type { z } from "@hono/zod-openapi";
import type { Memlane } from "../../engine/memlane.js";
import { errorSchema } from "./schemas.js";

/** The request context: `mem` is the engine's view of the tenant the request's key belongs to. */
export interface ServiceEnv {
  Variables: { mem: Memlane };
}

/** The security requirement of every key-protected route (the `apiKey` scheme). */
export const secured = [{ apiKey: [] }];

/** A JSON request body. */
export function jsonBody<T extends z.ZodType>(schema: T, description: string) {
  return { body: { content: { "application/json": { schema } }, required: true, description } };
}

/** A JSON answer. */
export function answer<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

const failure = (description: string) => answer(errorSchema, description);

/** The error answers every key-protected route may give. */
export const errorAnswers = {
  400: failure("the request does not fit its schema; `error.field` names the field"),
  401: failure("no API key, or one that is unknown, wrong or revoked"),
  404: failure("nothing with that id in the key's tenant"),
  409: failure("the write collides with what is stored (a taken id, a closed session)"),
  413: failure("the body is larger than the server's limit"),
};
