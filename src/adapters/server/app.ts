/**
 * The REST service over one memlane engine: hono with zod-openapi, so the schemas that validate
 * each request (the engine's own, engine/api.ts) are the ones the OpenAPI 3.1 document at
 * `/openapi.json` publishes. Every `/v1` route needs an API key (`Authorization: Bearer …`);
 * the key alone says which tenant the request works in. The same key opens the MCP tools at `/mcp`
 * (streamable HTTP). The web inspector's page is at `/inspect/`.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { bodyLimit } from "hono/body-limit";
import { formatReplicaShare } from "../../core/replica-share.js";
import { fieldsOf, refuseUnknownFields } from "../../core/unknown-fields.js";
import type { Logger } from "../../engine/logger.js";
import { consoleLogger } from "../../engine/logger.js";
import type { Memlane } from "../../engine/memlane.js";
import type { IngestJobStore } from "../../store/ingest-job-store.js";
import type { KeyStore } from "../../store/key-store.js";
import { MemoryIngestJobStore } from "../../store/memory-ingest-job-store.js";
import { createMcpServer } from "../mcp/mcp-tools.js";
import { affinityHeaders, REPLICA_HEADER } from "./affinity.js";
import { agentRoutes } from "./agent-routes.js";
import { notFoundOrNotAllowed } from "./allowed-methods.js";
import { requireApiKey } from "./auth.js";
import { exportRoutes } from "./export-routes.js";
import { errorHandler, errorResponse, validationHook } from "./http-errors.js";
import { type IngestJob, IngestJobs } from "./ingest-jobs.js";
import { findInspectorAssets, inspectorRoutes } from "./inspector.js";
import { jobRoutes } from "./job-routes.js";
import { DEFAULT_MAX_BODY_BYTES } from "./limits.js";
import { memoryRoutes } from "./memory-routes.js";
import { messageRoutes } from "./message-routes.js";
import { answer, errorAnswers, jsonBody, type ServiceEnv, secured } from "./route-kit.js";
import { sessionRoutes } from "./session-routes.js";
import { turnRoutes } from "./turn-routes.js";

/** The default largest request body: 1 MiB. */
export { DEFAULT_MAX_BODY_BYTES };

export interface ServiceOptions {
  /** The engine; each request works in `mem.tenant(<the key's tenant>)`. */
  mem: Memlane;
  /** Where API keys are checked. */
  keys: KeyStore;
  /**
   * Where transcript uploads (ingest jobs) are kept, e.g. `openIngestJobStore(spec)` for the
   * store's own database. @default this process's memory: a restart forgets the jobs
   */
  ingestJobs?: IngestJobStore;
  /**
   * Uploads run at once, of different tenants; each tenant's run in turn. @default 2
   */
  ingestConcurrency?: number;
  /**
   * Uploads one tenant may have queued or running here; past it 429 with `Retry-After`. @default 10
   */
  maxPendingUploads?: number;
  /**
   * How long an ingest job's server may go without renewing it before a server that `resume`d
   * takes it over. @default 30000
   */
  ingestLeaseMs?: number;
  /** Largest request body in bytes; larger ones get 413. @default 1 MiB */
  maxBodyBytes?: number;
  /** @default warnings and errors on stderr */
  logger?: Logger;
}

/** The app and what it runs in the background. */
export interface Service {
  app: OpenAPIHono<ServiceEnv>;
  /** Resolves when every ingest job started so far has finished (the engine's `idle()` covers consolidation). */
  idle(): Promise<void>;
  /**
   * Takes over the ingest jobs (of every tenant) that a stopped server left queued or running,
   * once their lease has run out: now, and from then on until `close`. Resolves with those taken
   * now, once queued.
   */
  resume(): Promise<IngestJob[]>;
  /** Takes over no more ingest jobs and resolves when those this service holds have finished. */
  close(): Promise<void>;
}

/**
 * Builds the REST app: routes, key check, body limit, error mapping and the OpenAPI document.
 * Test it in process with `app.request()`; serve it with `startServer` (server.ts).
 * @example
 * const { app } = createService({ mem, keys: await openSqliteKeyStore("memlane.db") });
 * const res = await app.request("/v1/agents", { headers: { authorization: `Bearer ${key}` } });
 */
export function createService(options: ServiceOptions): Service {
  refuseUnknownFields(options, SERVICE_OPTIONS_FIELDS, "createService options");
  const logger = options.logger ?? consoleLogger;
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const app = new OpenAPIHono<ServiceEnv>({ defaultHook: validationHook });
  const ingestJobs = new IngestJobs(options.ingestJobs ?? new MemoryIngestJobStore(), {
    logger,
    leaseMs: options.ingestLeaseMs,
    concurrency: options.ingestConcurrency,
    maxPending: options.maxPendingUploads,
  });

  app.onError(errorHandler(logger));
  app.notFound(notFoundOrNotAllowed(() => app.routes));
  // The key is checked before anything of the body is read.
  app.use("/v1/*", requireApiKey(options.keys, options.mem));
  app.use("/mcp", requireApiKey(options.keys, options.mem));
  // Names each answer's scope (and, on a replica with a share, its home) for scope affinity.
  app.use("/v1/*", affinityHeaders(options.mem.replica));
  app.use(
    "*",
    bodyLimit({
      maxSize,
      onError: (c) =>
        errorResponse(c, 413, "PAYLOAD_TOO_LARGE", `The body is larger than ${maxSize} bytes`, {
          limit: maxSize,
        }),
    }),
  );

  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "an API key from `memlane keys create --tenant T`; it decides the tenant",
  });
  // Liveness, and what a replica holds: its share of the scopes and its search indexes.
  app.get("/health", (c) => {
    const { replica } = options.mem;
    if (replica) c.header(REPLICA_HEADER, formatReplicaShare(replica));
    return c.json({ ok: true as const, replica, indexes: options.mem.indexes() });
  });
  // Readiness, for a load balancer: the store answers a one-row read within READY_TIMEOUT_MS.
  app.get("/ready", async (c) => {
    const mem = options.mem;
    const probe = mem.store.changeVersion({ tenant: mem.tenantId, agent: "memlane-ready" });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([probe, late]);
      return c.json({ ok: true as const }, 200);
    } catch (error) {
      probe.catch(() => undefined);
      return errorResponse(
        c,
        503,
        "STORE_UNAVAILABLE",
        `The store cannot be used: ${(error as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  });
  documentUnversionedRoutes(app);
  sessionRoutes(app);
  messageRoutes(app);
  memoryRoutes(app);
  turnRoutes(app);
  agentRoutes(app);
  exportRoutes(app);
  jobRoutes(app, ingestJobs);
  // The web inspector's files are open: they hold no data, and every call the page makes needs a key.
  inspectorRoutes(app, findInspectorAssets(logger));
  // The MCP tools over streamable HTTP, stateless: a server per request, in the key's tenant.
  // Stateless means POST only: no event stream to GET, no session to DELETE (405 with Allow).
  app.post("/mcp", async (c) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createMcpServer(c.var.mem);
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  // The server's own origin, as the request reached it: a generated client's default base URL.
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "memlane",
      version: "0.1.0",
      description:
        "Long-term memory for conversational agents, as a service. Every /v1 route needs `Authorization: Bearer <key>`; the key alone decides the tenant.",
    },
    servers: [{ url: new URL(c.req.url).origin, description: "this memlane server" }],
    tags: OPENAPI_TAGS,
  }));
  return {
    app,
    idle: () => ingestJobs.idle(),
    resume: () => ingestJobs.resume(options.mem),
    close: () => ingestJobs.close(),
  };
}

const SERVICE_OPTIONS_FIELDS = fieldsOf<ServiceOptions>({
  mem: true,
  keys: true,
  ingestJobs: true,
  ingestLeaseMs: true,
  ingestConcurrency: true,
  maxPendingUploads: true,
  maxBodyBytes: true,
  logger: true,
});

/** The operations' groups, in the order a generated client or a reader meets them. */
const OPENAPI_TAGS = [
  {
    name: "sessions",
    description:
      "Conversations: store a whole exchange in one call, or start one, add turns, reply, close it",
  },
  { name: "memory", description: "Recall, memories and their history, corrections, forget" },
  { name: "jobs", description: "Transcript uploads and consolidation that failed or waits" },
  { name: "inspect", description: "An agent's summary, memory graph and operation log" },
  { name: "service", description: "Health, readiness and the MCP endpoint" },
];

/** How long `/ready` waits for the store. */
const READY_TIMEOUT_MS = 2000;

/**
 * /health, /ready and /mcp in the OpenAPI document. They are plain hono routes (the MCP transport answers
 * with its own Response), so they are described here rather than declared with `app.openapi`.
 */
function documentUnversionedRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openAPIRegistry.registerPath({
    operationId: "getHealth",
    tags: ["service"],
    method: "get",
    path: "/health",
    summary: "Whether the server answers, and what it holds (no key needed)",
    responses: {
      200: answer(
        z.object({
          ok: z.literal(true),
          replica: z
            .object({ index: z.number().int(), of: z.number().int() })
            .nullable()
            .describe("this replica's share of the scopes (memlane serve --replica index/of), or null"),
          indexes: z
            .object({ limit: z.number().int(), used: z.number().int(), count: z.number().int() })
            .nullable()
            .describe("the search indexes held in this process: the byte budget, bytes held, indexes held"),
        }),
        "the server is up",
      ),
    },
  });
  app.openAPIRegistry.registerPath({
    operationId: "getReady",
    tags: ["service"],
    method: "get",
    path: "/ready",
    summary: "Whether the server can serve: its store answers (no key needed)",
    responses: {
      200: answer(z.object({ ok: z.literal(true) }), "the store answers"),
      503: errorAnswers[503],
    },
  });
  app.openAPIRegistry.registerPath({
    operationId: "callMcp",
    tags: ["service"],
    method: "post",
    path: "/mcp",
    summary: "memlane's MCP tools over streamable HTTP, stateless (POST only), in the key's tenant",
    security: secured,
    request: jsonBody(
      z.object({ jsonrpc: z.literal("2.0") }).passthrough(),
      "one MCP JSON-RPC message (initialize, tools/list, tools/call)",
    ),
    responses: {
      200: answer(z.object({ jsonrpc: z.literal("2.0") }).passthrough(), "the JSON-RPC answer"),
      401: errorAnswers[401],
      405: errorAnswers[405],
    },
  });
}
