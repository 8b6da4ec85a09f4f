/**
 * Consolidation jobs as the API shows them. A job's id names its session (agent and session id,
 * encoded), so it resolves from the store — the session's status and its operations — for as long
 * as the session is kept: after a restart, in any replica, whatever other tenants did meanwhile.
 * The queue's own record, while this process holds it, adds what only it knows (running, the
 * time it was queued and finished).
 */
import type { z } from "@hono/zod-openapi";
import { idSchema } from "../../engine/api.js";
import type { JobInfo } from "../../engine/events.js";
import type { Memlane } from "../../engine/memlane.js";
import type { jobSchema } from "./schemas.js";

type ApiJob = z.infer<typeof jobSchema>;

const PREFIX = "cj_";

/** The API id of the consolidation of one session. */
export function consolidationJobId(agent: string, sessionId: string): string {
  return `${PREFIX}${Buffer.from(JSON.stringify([agent, sessionId])).toString("base64url")}`;
}

/** The session a consolidation job id names; null for any other id. */
export function sessionOfJob(id: string): { agent: string; sessionId: string } | null {
  if (!id.startsWith(PREFIX)) return null;
  try {
    const value = JSON.parse(Buffer.from(id.slice(PREFIX.length), "base64url").toString("utf8")) as unknown;
    if (Array.isArray(value) && value.length === 2) {
      const [agent, sessionId] = value as unknown[];
      // Only an id this server could have made: valid ids, encoded exactly so (no stray characters).
      if (
        idSchema.safeParse(agent).success &&
        idSchema.safeParse(sessionId).success &&
        consolidationJobId(agent as string, sessionId as string) === id
      )
        return { agent: agent as string, sessionId: sessionId as string };
    }
  } catch {
    // Not one of ours: not found.
  }
  return null;
}

/** A queue record as the API shows it. */
export function consolidationJob(job: JobInfo): ApiJob {
  const { tenant: _tenant, id: _id, ...rest } = job;
  return { ...rest, id: consolidationJobId(job.agent, job.sessionId), kind: "consolidate" };
}

/**
 * The consolidation of one session as it stands: the queue's record while it is queued or running
 * here, else what the store says (consolidated: done; failed: failed, with the failure; closed:
 * queued, waiting in this or another process). Null when the session is unknown or still open.
 */
export async function consolidationJobNow(
  mem: Memlane,
  agent: string,
  sessionId: string,
): Promise<ApiJob | null> {
  const session = await mem.getSession(agent, sessionId);
  if (!session || session.status === "open") return null;
  const live = mem
    .jobs()
    .filter((j) => j.agent === agent && j.sessionId === sessionId)
    .at(-1);
  if (live && (live.state === "queued" || live.state === "running")) return consolidationJob(live);
  const ops = await mem.operations(agent, { sessionId });
  const finishedAt =
    live?.finishedAt ??
    ops
      .map((o) => o.recordedAt)
      .sort()
      .at(-1);
  const base = {
    id: consolidationJobId(agent, sessionId),
    kind: "consolidate" as const,
    agent,
    sessionId,
    queuedAt: live?.queuedAt ?? session.recordedAt,
  };
  if (session.status === "consolidated")
    return { ...base, state: "done", ...(finishedAt ? { finishedAt } : {}) };
  if (session.status === "failed") {
    // The latest failed CONSOLIDATE says why (the log is newest first).
    const failure = ops.find((o) => o.type === "CONSOLIDATE" && o.status === "failed");
    return {
      ...base,
      state: "failed",
      error: failure?.error ?? live?.error ?? "consolidation failed",
      ...(finishedAt ? { finishedAt } : {}),
    };
  }
  return { ...base, state: "queued" };
}
