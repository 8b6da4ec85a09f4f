/**
 * `GET /v1/agents/{agent}/export`: an agent's scope, or a person's part of it, as the export
 * format's JSON lines (docs/formats.md), streamed as the store is read a page at a time. There is
 * no import route: an import writes rows as given (ids, times, statuses, operation records) past
 * the engine's own reasoning, which is a restore for whoever runs the database (`memlane import`),
 * and a scope's file is far larger than a request body may be.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { NotFoundError } from "../../core/errors.js";
import { storedIdSchema, unknownFields } from "../../engine/api.js";
import { errorAnswers, type ServiceEnv, secured } from "./route-kit.js";
import { agentParams } from "./schemas.js";

export const exportQuery = z.strictObject(
  {
    about: storedIdSchema
      .optional()
      .describe("only this person's data: the sessions they were in, their words, memories about them"),
    embeddings: z
      .enum(["true", "false"])
      .optional()
      .describe("include the stored vectors; default false (the embedder recomputes them)"),
  },
  unknownFields,
);

const exportRoute = createRoute({
  operationId: "exportAgent",
  method: "get",
  path: "/v1/agents/{agent}/export",
  tags: ["memory"],
  summary: "The agent's memory as JSON lines: sessions, turns, every memory version, edges, operations",
  description:
    'A header line, one line per row, an end line with the counts (docs/formats.md, "Export"); streamed. `memlane import` reads it into any store.',
  security: secured,
  request: { params: agentParams, query: exportQuery },
  responses: {
    200: {
      content: { "application/x-ndjson": { schema: z.string().describe("JSON lines") } },
      description: "the export, one JSON value per line",
    },
    ...errorAnswers,
  },
});

/** Registers the export route. */
export function exportRoutes(app: OpenAPIHono<ServiceEnv>): void {
  app.openapi(exportRoute, async (c) => {
    const { agent } = c.req.valid("param");
    const { about, embeddings } = c.req.valid("query");
    const mem = c.var.mem;
    if (!(await mem.agents()).includes(agent))
      throw new NotFoundError(`No agent "${agent}"`, { field: "agent" });
    const lines = mem
      .export({ agent, ...(about ? { about } : {}), embeddings: embeddings === "true" })
      [Symbol.asyncIterator]();
    // The header is read before answering: a person no one knows is a 404, not a broken stream.
    const first = await lines.next();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (!first.done) controller.enqueue(encoder.encode(first.value));
      },
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return?.(undefined);
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${encodeURIComponent(agent)}.jsonl"`,
      },
    }) as never;
  });
}
