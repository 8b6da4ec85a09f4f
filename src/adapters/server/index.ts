/**
 * `memlane/server`: memlane behind HTTP — the REST app (hono, OpenAPI 3.1), API keys that map to
 * tenants, durable upload jobs, the web inspector and the HTTP server. `memlane serve` is this
 * over the facade; import it to mount the app in your own server.
 */
export {
  type CreatedKey,
  createApiKey,
  type KeySummary,
  keySummary,
  revokeApiKey,
  tenantOfKey,
} from "./api-keys.js";
export { createService, DEFAULT_MAX_BODY_BYTES, type Service, type ServiceOptions } from "./app.js";
export { type ErrorBody, HTTP_STATUS } from "./http-errors.js";
export type { IngestJob } from "./ingest-jobs.js";
export { type ResumedSession, resumeInterrupted } from "./resume.js";
export { isLoopback, type RunningServer, startServer } from "./server.js";
