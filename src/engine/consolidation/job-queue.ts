/**
 * The JobQueue port, version 1: where session-end consolidation waits to run. The engine hands
 * the queue one handler; `enqueue` records a job and the queue runs it with that handler, here
 * or (a Postgres queue) in another process. InProcessJobQueue is the default: jobs in this
 * process, served in turn across tenants and agents, two at a time unless told otherwise;
 * PostgresJobQueue (adapters/postgres/postgres-queue.ts) keeps jobs in Postgres for worker
 * processes. A job may run more than once there: the store's refusal to consolidate a
 * session twice (WriteBatch.sessionStatus) is what makes that harmless.
 */
import { BusyError, UnsupportedError } from "../../core/errors.js";
import { newId } from "../../core/ids.js";
import { checkSpecification, definePort } from "../../core/specification.js";
import type { JobInfo } from "../events.js";
import { FairLines } from "./fair-lines.js";

export interface JobRequest {
  kind: "consolidate";
  tenant: string;
  agent: string;
  sessionId: string;
}

/** Runs one job; false when it failed and the failure was recorded. */
export type JobHandler = (request: JobRequest) => Promise<boolean>;

/** A session the store holds as closed: its consolidation is owed. */
export interface ClosedSession {
  tenant: string;
  agent: string;
  sessionId: string;
  /** The session's conversation time, which orders an agent's sessions. */
  at: string;
}

/**
 * Every session the store holds as closed, of every tenant. A queue shared by processes sweeps
 * them for sessions with no job (the close stored the status, then queueing it failed) and
 * queues those, so none waits for a client to close it again or a process to restart.
 */
export type ClosedSessions = () => Promise<ClosedSession[]>;

export interface JobQueue {
  readonly specificationVersion: typeof JOB_QUEUE_SPECIFICATION.version;
  /**
   * Called once by the engine, before any enqueue: how to run a job, whom to tell of changes and,
   * when the store can say, where to find closed sessions (for a queue that sweeps for lost jobs).
   */
  process(handler: JobHandler, onChange: (job: JobInfo) => void, closed?: ClosedSessions): void;
  /** Records a job; `done` settles with the job when it has run. */
  enqueue(request: JobRequest): Promise<{ job: JobInfo; done: Promise<JobInfo> }>;
  /**
   * Resolves when every job this queue knows of has run. A queue whose jobs run in other
   * processes (PostgresJobQueue with `work: false`) resolves once its jobs are stored there: a
   * process that only enqueues must be able to stop while no worker runs.
   */
  idle(): Promise<void>;
  /** Recent jobs, newest last. */
  jobs(): JobInfo[];
  /**
   * Jobs of this tenant not yet finished (queued or running), across every process sharing the
   * queue: what the engine holds to a tenant's bound before it accepts more work. A queue without
   * it leaves tenants unbounded.
   */
  pending?(tenant: string): Promise<number>;
  /**
   * True when other processes run this queue's jobs too (a Postgres queue). Every consolidation,
   * an upload's included, then goes through the queue, whose per-agent lock keeps one agent's
   * consolidations apart and in order; none runs beside it in the process that stored the turns.
   */
  readonly shared?: boolean;
  close?(): Promise<void>;
}

/** Refuses a JobQueue written for another version of the port. */
export function checkJobQueue(queue: JobQueue): JobQueue {
  return checkSpecification(queue, JOB_QUEUE_SPECIFICATION);
}

/** Consolidation jobs one tenant may have waiting or running unless the engine is told otherwise. */
export const DEFAULT_MAX_PENDING_JOBS = 1000;

/** Seconds a tenant refused for a full line is told to wait before it tries again. */
export const BUSY_RETRY_SECONDS = 5;

/**
 * Refuses more work for a tenant whose line already holds `bound` jobs (waiting or running),
 * before anything is changed; a queue that does not count them bounds nothing.
 * @throws {BusyError} the tenant's line is full
 */
export async function admit(queue: JobQueue, tenant: string, bound: number): Promise<void> {
  if (!queue.pending) return;
  const pending = await queue.pending(tenant);
  if (pending < bound) return;
  throw new BusyError(
    `Tenant "${tenant}" has ${pending} consolidation job(s) waiting or running, as many as this server allows (${bound}); try again in ${BUSY_RETRY_SECONDS} s`,
    { retryAfterSeconds: BUSY_RETRY_SECONDS, pending, bound },
  );
}

/** Finished jobs each tenant keeps listed; one tenant's jobs never push out another's. */
const FINISHED_PER_TENANT = 200;

/** How the in-process queue runs its jobs. */
export interface InProcessQueueOptions {
  /**
   * Jobs that may run at once (default 2). Never two of one agent: an agent's jobs run one after
   * another, in the order queued.
   */
  concurrency?: number;
  /**
   * Jobs of one tenant that may run at once (default all but one of `concurrency`, at least 1):
   * a tenant whose consolidations are slow (a slow model) leaves a place for the others.
   */
  perTenant?: number;
}

interface Waiting {
  job: JobInfo;
  request: JobRequest;
  settle: (job: JobInfo) => void;
}

/**
 * Jobs in this process, served in turn across tenants and, within a tenant, across agents
 * (fair-lines.ts): a tenant that queues many sessions does not make another wait behind all of
 * them. One agent's jobs keep their order. Unfinished jobs are always listed, and each tenant's
 * last 200 finished ones (the store keeps the lasting record: the session's status and its
 * operations).
 */
export class InProcessJobQueue implements JobQueue {
  readonly specificationVersion = "v1" as const;
  /** Each tenant's jobs, oldest first. */
  private readonly byTenant = new Map<string, JobInfo[]>();
  private readonly unsettled = new Set<Promise<JobInfo>>();
  private readonly lines: FairLines<Waiting>;
  private handler: JobHandler | null = null;
  private onChange: (job: JobInfo) => void = () => undefined;

  constructor(options: InProcessQueueOptions = {}) {
    this.lines = new FairLines(options.concurrency ?? 2, (w) => this.runOne(w), options.perTenant);
  }

  process(handler: JobHandler, onChange: (job: JobInfo) => void): void {
    this.handler = handler;
    this.onChange = onChange;
  }

  /** Recent jobs; a queued one says where it stands in the line (`position`, 1 runs next). */
  jobs(): JobInfo[] {
    const position = new Map(this.lines.order().map((w, i) => [w.job.id, i + 1]));
    return [...this.byTenant.values()]
      .flat()
      .sort((a, b) => a.queuedAt.localeCompare(b.queuedAt))
      .map((j) => (position.has(j.id) ? { ...j, position: position.get(j.id)! } : { ...j }));
  }

  async pending(tenant: string): Promise<number> {
    return (this.byTenant.get(tenant) ?? []).filter((j) => j.state === "queued" || j.state === "running")
      .length;
  }

  async enqueue(request: JobRequest): Promise<{ job: JobInfo; done: Promise<JobInfo> }> {
    if (!this.handler)
      throw new UnsupportedError("The job queue has no handler: the engine did not start it");
    const job: JobInfo = {
      id: newId("job"),
      tenant: request.tenant,
      agent: request.agent,
      sessionId: request.sessionId,
      state: "queued",
      queuedAt: new Date().toISOString(),
    };
    const mine = this.byTenant.get(job.tenant) ?? [];
    mine.push(job);
    this.byTenant.set(job.tenant, mine);
    this.onChange({ ...job });
    let settle: (job: JobInfo) => void = () => undefined;
    const done = new Promise<JobInfo>((resolve) => {
      settle = resolve;
    });
    this.unsettled.add(done);
    void done.then(() => this.unsettled.delete(done));
    const queued = { ...job };
    // Joins its line after the caller has the job: it starts no sooner than the caller's next step.
    queueMicrotask(() => this.lines.push(request.tenant, request.agent, { job, request, settle }));
    return { job: queued, done };
  }

  async idle(): Promise<void> {
    while (this.unsettled.size > 0) await Promise.all([...this.unsettled]);
  }

  private async runOne({ job, request, settle }: Waiting): Promise<void> {
    job.state = "running";
    this.onChange({ ...job });
    try {
      const ok = await this.handler!(request);
      job.state = ok ? "done" : "failed";
      if (!ok) job.error = "consolidation failed; see the failed CONSOLIDATE operation";
    } catch (error) {
      job.state = "failed";
      job.error = (error as Error).message;
    }
    job.finishedAt = new Date().toISOString();
    this.prune(job.tenant);
    this.onChange({ ...job });
    settle({ ...job });
  }

  /** Drops the tenant's oldest finished jobs beyond its bound. */
  private prune(tenant: string): void {
    const mine = this.byTenant.get(tenant) ?? [];
    let extra = mine.filter((j) => j.state === "done" || j.state === "failed").length - FINISHED_PER_TENANT;
    if (extra <= 0) return;
    this.byTenant.set(
      tenant,
      mine.filter((j) => !((j.state === "done" || j.state === "failed") && extra-- > 0)),
    );
  }
}

/** The JobQueue port's specification: the version its implementations declare, the methods they have. */
export const JOB_QUEUE_SPECIFICATION = definePort("JobQueue", "v1", ["process", "enqueue", "idle", "jobs"]);
