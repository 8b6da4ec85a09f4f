/** Routes of background work: transcript ingest as a job, jobs, failures and retry. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { NotFoundError } from "../../core/errors.js";
import { transcriptSchema } from "../../engine/ingest/formats/transcript.js";
import { consolidationJob, consolidationJobNow, sessionOfJob } from "./consolidation-jobs.js";
import type { IngestJob, IngestJobs } from "./ingest-jobs.js";
import { answer, errorAnswers, jsonBody, type ServiceEnv, secured } from "./route-kit.js";
import {
  agentParams,
  jobParams,
  jobSchema,
  noQuery,
  operationSchema,
  retryBody,
  retryReportSchema,
} from "./schemas.js";

const tags = ["jobs"];

/** A transcript every rule above admits (the document's own example). */
const TRANSCRIPT_EXAMPLE = {
  agent: "ava",
  sessions: [
    {
      id: "s1",
      at: "2024-03-02T18:00:00Z",
      partner: "sam",
      turns: [
        { speaker: "ava", text: "How was your week?" },
        { speaker: "sam", text: "I started a new job at the library." },
      ],
    },
  ],
};

const ingest = createRoute({
  operationId: "ingestTranscripts",
  method: "post",
  path: "/v1/ingest",
  tags,
  summary: "Upload a transcript (or several); stored and consolidated as a background job",
  description:
    "The memlane transcript format (docs/formats.md). Checked before it is acknowledged (400 naming the field): every session names a partner, has turns and a time (ISO-8601 or LoCoMo's form) no earlier than the session above it; every speaker is the agent or a partner of its session; turn times never go back; ids are unique. Answers once the upload is recorded, with the job; a server stopped before the job finished runs it again when it starts, and uploading it again also finishes what an interrupted job left. A job with a session that failed to consolidate ends `failed`, its reports saying which.",
  security: secured,
  request: {
    query: noQuery,
    ...jsonBody(
      z.union([transcriptSchema, z.array(transcriptSchema).min(1)]).meta({ examples: [TRANSCRIPT_EXAMPLE] }),
      "a transcript, or an array of them",
    ),
  },
  responses: { 202: answer(z.object({ job: jobSchema }), "the queued ingest job"), ...errorAnswers },
});

const listJobs = createRoute({
  operationId: "listJobs",
  method: "get",
  path: "/v1/jobs",
  tags,
  summary: "The tenant's ingest and consolidation jobs",
  security: secured,
  request: { query: noQuery },
  responses: {
    200: answer(z.object({ jobs: z.array(jobSchema) }), "the jobs, oldest first"),
    ...errorAnswers,
  },
});

const readJob = createRoute({
  operationId: "getJob",
  method: "get",
  path: "/v1/jobs/{jobId}",
  tags,
  summary: "One job: its state and, for a finished ingest, its reports",
  security: secured,
  request: { params: jobParams, query: noQuery },
  responses: { 200: answer(jobSchema, "the job"), ...errorAnswers },
});

const failures = createRoute({
  operationId: "listFailures",
  method: "get",
  path: "/v1/agents/{agent}/failures",
  tags,
  summary: "Failed consolidations and per-turn work waiting for a retry",
  security: secured,
  request: { params: agentParams, query: noQuery },
  responses: {
    200: answer(z.object({ failures: z.array(operationSchema) }), "the failed operations"),
    ...errorAnswers,
  },
});

const retry = createRoute({
  operationId: "retryFailures",
  method: "post",
  path: "/v1/agents/{agent}/retry",
  tags,
  summary: "Run failed work again (all of the agent's, or one session's)",
  security: secured,
  request: {
    params: agentParams,
    query: noQuery,
    ...jsonBody(retryBody, "which session, and whether to finish open ones", { open: true }),
  },
  responses: { 200: answer(retryReportSchema, "what ran again and how it went"), ...errorAnswers },
});

function shown(job: IngestJob): z.infer<typeof jobSchema> {
  const { tenant: _tenant, ...rest } = job;
  return rest;
}

/** Registers the job routes over the server's ingest jobs. */
export function jobRoutes(app: OpenAPIHono<ServiceEnv>, ingestJobs: IngestJobs): void {
  app.openapi(ingest, async (c) => {
    const body = c.req.valid("json");
    const transcripts = Array.isArray(body) ? body : [body];
    // Refused now, not failed later: speakers, times, lengths, a session named twice.
    c.var.mem.validateTranscripts(transcripts);
    const job = await ingestJobs.start(c.var.mem, transcripts);
    return c.json({ job: shown(job) }, 202);
  });

  app.openapi(listJobs, async (c) => {
    const mem = c.var.mem;
    // A session consolidated again (a retry) is one job: its latest record.
    const consolidations = new Map(
      mem
        .jobs()
        .map(consolidationJob)
        .map((j) => [j.id, j]),
    );
    const jobs = [...(await ingestJobs.list(mem.tenantId)).map(shown), ...consolidations.values()];
    jobs.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt));
    return c.json({ jobs }, 200);
  });

  app.openapi(readJob, async (c) => {
    const { jobId } = c.req.valid("param");
    const mem = c.var.mem;
    const session = sessionOfJob(jobId);
    const job = session
      ? await consolidationJobNow(mem, session.agent, session.sessionId)
      : await ingestJobs.get(mem.tenantId, jobId).then((j) => (j ? shown(j) : null));
    if (!job) throw new NotFoundError(`No job "${jobId}"`, { field: "jobId" });
    return c.json(job, 200);
  });

  app.openapi(failures, async (c) => {
    const { agent } = c.req.valid("param");
    return c.json({ failures: await c.var.mem.failures(agent) }, 200);
  });

  app.openapi(retry, async (c) => {
    const { agent } = c.req.valid("param");
    const { sessionId, open } = c.req.valid("json");
    const report = await c.var.mem.retry(agent, sessionId, { open });
    return c.json({ turns: report.turns, jobs: report.jobs.map(consolidationJob), steps: report.steps }, 200);
  });
}
