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

/**
 * A JSON request body; `example`, when given, is published with it (a test sends every published
 * example to the server and expects it accepted, so generated clients' samples work).
 */
export function jsonBody<T extends z.ZodType>(schema: T, description: string, example?: z.input<T>) {
  const media = example === undefined ? { schema } : { schema, example };
  return { body: { content: { "application/json": media }, required: true, description } };
}

/** A JSON answer. */
export function answer<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

/** An error answer; a route whose refusal means something of its own describes it. */
export const failure = (description: string) => answer(errorSchema, description);

/** The error answers every key-protected route may give (the error codes are in docs/errors.md). */
export const errorAnswers = {
  400: failure("INVALID_INPUT: the request does not fit its schema; `error.field` names the field"),
  401: failure("UNAUTHORIZED: no API key, or one that is unknown, wrong or revoked"),
  404: failure("NOT_FOUND: nothing with that id in the key's tenant"),
  405: failure("METHOD_NOT_ALLOWED: the path answers other methods; `Allow` lists them"),
  409: failure("CONFLICT: the write collides with what is stored (a taken id, a closed session)"),
  413: failure("PAYLOAD_TOO_LARGE: the body is larger than the server's limit"),
  415: failure("UNSUPPORTED_MEDIA_TYPE: a body that is not JSON"),
  429: failure(
    "BUSY: the tenant has as much work waiting as the server allows; nothing was changed, try again after `Retry-After` seconds",
  ),
  500: failure("UNEXPECTED: the server failed; its log says why"),
  501: failure("UNSUPPORTED: the deployment cannot do this (a port of another version)"),
  502: failure("SCHEMA_MISMATCH: the model's answers never fit their schema"),
  503: failure("STORE_UNAVAILABLE or MODEL_UNAVAILABLE: the database or the model cannot be reached"),
  504: failure("MODEL_TIMEOUT: the model did not answer in time"),
};
