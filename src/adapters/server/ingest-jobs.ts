/**
 * Transcript uploads run as jobs: the request is answered at once with a job id, and the job's
 * state and reports are read from `/v1/jobs/{id}`. Each job is kept through the IngestJobStore
 * port: the upload with its validated transcripts is recorded before it is acknowledged, and
 * every change of state as it happens. A server that `resume`s takes over the jobs a stopped
 * server left queued or running once their lease has run out; ingest skips the sessions and
 * turns already stored, so a job killed half way stores the rest, each turn once.
 */
import { randomUUID } from "node:crypto";
import { BusyError } from "../../core/errors.js";
import { compositeKey } from "../../core/ids.js";
import { FairLines } from "../../engine/consolidation/fair-lines.js";
import type { IngestReport } from "../../engine/ingest/ingest.js";
import { consoleLogger, type Logger } from "../../engine/logger.js";
import type { Memlane } from "../../engine/memlane.js";
import type {
  IngestJobChange,
  IngestJobRecord,
  IngestJobStore,
  PendingIngestJob,
} from "../../store/ingest-job-store.js";
import { forgetInTranscripts, pendingOf } from "../../store/pending-forget.js";

export interface IngestJob {
  id: string;
  kind: "ingest";
  tenant: string;
  state: "queued" | "running" | "done" | "failed";
  error?: string;
  queuedAt: string;
  finishedAt?: string;
  reports?: IngestReport[];
  /** A queued job's place in this server's line as things stand (1 runs next). */
  position?: number;
}

export interface IngestJobsOptions {
  /** Each tenant's most recent jobs kept; older finished ones are deleted. @default 1000 */
  keep?: number;
  /** Where a job's state could not be recorded is said. @default stderr */
  logger?: Logger;
  /**
   * A job whose server has not renewed its heartbeat for this long is taken over by a server
   * that `resume`d; heartbeats go every third of it. @default 30000
   */
  leaseMs?: number;
  /**
   * Uploads run at once, of different tenants (one tenant's run one after another, in order).
   * @default 2
   */
  concurrency?: number;
  /**
   * Uploads one tenant may have queued or running on this server; past it an upload is refused
   * with BUSY (HTTP 429, `Retry-After`) and nothing is recorded. @default 10
   */
  maxPending?: number;
}

/** Seconds a tenant refused for a full line of uploads is told to wait. */
const UPLOAD_RETRY_SECONDS = 10;

/**
 * The ingest jobs of one server, served in turn across tenants (fair-lines.ts): a tenant that
 * uploads two hundred sessions waits its turn like one that uploads one, and one tenant's uploads
 * run one after another, in the order they were queued. The server owns the jobs it queued or
 * took over and renews their heartbeat while it holds them.
 */
export class IngestJobs {
  /** This server's name on the jobs it holds: new at every start, so a restart is another owner. */
  readonly owner = `server-${randomUUID()}`;
  private readonly running = new Set<Promise<void>>();
  /** Jobs queued or running here, by tenant and id, each with its tenant (the heartbeat names them). */
  private readonly held = new Map<string, string>();
  private readonly lines: FairLines<() => Promise<void>>;
  /** The queued work, by the key of its job: where a job stands in the line is read from it. */
  private readonly waiting = new Map<() => Promise<void>, string>();
  private readonly maxPending: number;
  private readonly keep: number;
  private readonly logger: Logger;
  private readonly leaseMs: number;
  private ticker?: ReturnType<typeof setInterval>;
  private ticking = false;
  /** The engine jobs taken over run in; set by `resume`, cleared by `close`. */
  private resumeInto?: Memlane;
  private closed = false;

  constructor(
    private readonly store: IngestJobStore,
    options: IngestJobsOptions = {},
  ) {
    this.keep = options.keep ?? 1000;
    this.logger = options.logger ?? consoleLogger;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxPending = options.maxPending ?? 10;
    // One line per tenant: two uploads of one tenant may name the same sessions, and must not
    // interleave their checks.
    this.lines = new FairLines(options.concurrency ?? 2, (run) => run(), 1);
  }

  /**
   * Records a job for already validated transcripts in the tenant of `mem` and queues it after
   * those before it; resolves with the job once the record (transcripts included) is stored.
   * @throws {StoreUnavailableError} the job could not be recorded: nothing was acknowledged
   * @throws {BusyError} the tenant has `maxPending` uploads queued or running here: nothing was recorded
   */
  async start(mem: Memlane, transcripts: unknown[]): Promise<IngestJob> {
    const mine = [...this.held.values()].filter((tenant) => tenant === mem.tenantId).length;
    if (mine >= this.maxPending)
      throw new BusyError(
        `Tenant "${mem.tenantId}" has ${mine} upload(s) queued or running, as many as this server allows (${this.maxPending}); try again in ${UPLOAD_RETRY_SECONDS} s`,
        { retryAfterSeconds: UPLOAD_RETRY_SECONDS, pending: mine, bound: this.maxPending },
      );
    const now = new Date().toISOString();
    const job: PendingIngestJob = {
      tenant: mem.tenantId,
      id: `ingest-${randomUUID()}`,
      state: "queued",
      error: null,
      queuedAt: now,
      startedAt: null,
      finishedAt: null,
      reports: null,
      owner: this.owner,
      heartbeatAt: now,
      transcripts,
    };
    await this.store.add(job);
    this.enqueue(mem, job);
    this.store
      .prune(job.tenant, this.keep)
      .catch((error) => this.logger.warn(`pruning old ingest jobs failed: ${(error as Error).message}`));
    return shown(job);
  }

  /**
   * Takes over the unfinished jobs, of any tenant, whose server stopped renewing them for a lease
   * (killed, or lost), now and then every third of a lease until `close`; resolves with those
   * taken now, once queued. Each runs in its own tenant's view of `mem`, the engine the service
   * serves. A job a killed server held is taken once its last heartbeat is a lease old.
   */
  async resume(mem: Memlane): Promise<IngestJob[]> {
    if (this.closed) return [];
    this.resumeInto = mem;
    const taken = await this.takeOver();
    this.schedule();
    return taken;
  }

  /** The tenant's job with this id; undefined for another tenant's. */
  async get(tenant: string, id: string): Promise<IngestJob | undefined> {
    const record = await this.store.get(tenant, id);
    return record ? this.placed(shown(record), this.positions()) : undefined;
  }

  /** The tenant's jobs (its most recent `keep`), oldest first. */
  async list(tenant: string): Promise<IngestJob[]> {
    const positions = this.positions();
    return (await this.store.list(tenant, this.keep)).map((r) => this.placed(shown(r), positions));
  }

  /** Where each job queued here stands in the line, by its key (1 runs next). */
  private positions(): Map<string, number> {
    return new Map(this.lines.order().map((run, i) => [this.waiting.get(run) ?? "", i + 1]));
  }

  /** A queued job with its place in this server's line, when it waits here. */
  private placed(job: IngestJob, positions: Map<string, number>): IngestJob {
    const at = job.state === "queued" ? positions.get(keyOf(job)) : undefined;
    return at === undefined ? job : { ...job, position: at };
  }

  /** Resolves when every job queued or taken over so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Takes over nothing more, finishes the jobs held (renewing them meanwhile), then stops. */
  async close(): Promise<void> {
    this.closed = true;
    this.resumeInto = undefined;
    await this.idle();
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private async takeOver(): Promise<IngestJob[]> {
    const mem = this.resumeInto;
    if (!mem) return [];
    const staleBefore = new Date(Date.now() - this.leaseMs).toISOString();
    const taken: IngestJob[] = [];
    for (const record of await this.store.stale(staleBefore)) {
      if (this.held.has(keyOf(record))) continue;
      const job = await this.store.claim(
        record.tenant,
        record.id,
        this.owner,
        staleBefore,
        new Date().toISOString(),
      );
      // Claiming a job twice is harmless (it is ours either way); queueing it twice is not.
      if (!job || this.held.has(keyOf(job))) continue;
      this.enqueue(mem.tenant(job.tenant), job);
      taken.push(shown(job));
    }
    return taken;
  }

  private enqueue(mem: Memlane, job: PendingIngestJob): void {
    const key = keyOf(job);
    this.held.set(key, job.tenant);
    this.schedule();
    // A forget while the job waits or runs takes what it names out of the job's transcripts, here
    // (the copy it will run) and in the store (the copy a takeover or restart would run); once
    // the job runs, ingest itself skips what is forgotten meanwhile.
    const stopListening = mem.onForget({
      starting: (notice) => {
        const left = forgetInTranscripts(job.transcripts, notice.agent, notice);
        if (left !== null) job.transcripts = left;
      },
      pending: (agent) => pendingOf(job.transcripts, agent),
      erased: async (notice) => {
        await this.store.forgetPending(notice.tenant, notice.agent, notice);
      },
    });
    let finished: () => void = () => undefined;
    const run = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const work = async () => {
      this.waiting.delete(work);
      try {
        // A job another server took over while it waited here is its to run now.
        if (!(await this.record(job, { state: "running", startedAt: new Date().toISOString() }))) return;
        let change: IngestJobChange;
        try {
          const reports = await mem.ingestAll(job.transcripts);
          // A job with a failed session is not done: its reports say which, and `retry` mends them.
          const failed = reports.flatMap((r) => r.failures.map((f) => `${r.agent}/${f.sessionId}`));
          const stopped = reports.find((r) => r.stopped)?.stopped;
          change =
            failed.length || stopped
              ? {
                  state: "failed",
                  error: stopped
                    ? `stopped: ${stopped}`
                    : `${failed.length} session(s) failed to consolidate: ${failed.slice(0, 5).join(", ")}${failed.length > 5 ? ", …" : ""}`,
                  reports,
                  finishedAt: new Date().toISOString(),
                }
              : { state: "done", error: null, reports, finishedAt: new Date().toISOString() };
        } catch (error) {
          const message = (error as Error)?.message ?? String(error);
          change = { state: "failed", error: message, finishedAt: new Date().toISOString() };
        }
        await this.record(job, change);
      } finally {
        stopListening();
        this.held.delete(key);
        finished();
      }
    };
    this.waiting.set(work, key);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    this.lines.push(job.tenant, "", work);
  }

  /**
   * Stores a change of state; false only when another server holds the job now. A store that
   * fails here costs the record alone: the job is left unfinished for a later takeover, and
   * ingest skips what it stored.
   */
  private async record(job: PendingIngestJob, change: IngestJobChange): Promise<boolean> {
    try {
      if (await this.store.update(job.tenant, job.id, this.owner, change)) return true;
      this.logger.warn(`ingest job ${job.id} was taken over by another server; leaving it to that one`);
      return false;
    } catch (error) {
      this.logger.warn(`ingest job ${job.id}: its state "${change.state}" was not recorded`, {
        error: (error as Error).message,
      });
      return true;
    }
  }

  /** Heartbeats (and takeovers, once resumed) every third of a lease while there is anything to do. */
  private schedule(): void {
    if (this.ticker || (this.held.size === 0 && !this.resumeInto)) return;
    this.ticker = setInterval(() => void this.tick(), Math.max(1, Math.floor(this.leaseMs / 3)));
    // A server stays up for its own reasons; this timer alone keeps no process alive.
    this.ticker.unref();
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      if (this.held.size > 0)
        await this.store.heartbeat(this.owner, new Date().toISOString(), [...new Set(this.held.values())]);
      if (!this.closed) await this.takeOver();
    } catch (error) {
      this.logger.warn(`ingest jobs: heartbeat or takeover failed: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
      if (this.held.size === 0 && !this.resumeInto) {
        clearInterval(this.ticker);
        this.ticker = undefined;
      }
    }
  }
}

function keyOf(job: { tenant: string; id: string }): string {
  return compositeKey(job.tenant, job.id);
}

/** A stored job as the service shows it: no transcripts, no empty fields. */
function shown(record: IngestJobRecord): IngestJob {
  return {
    id: record.id,
    kind: "ingest",
    tenant: record.tenant,
    state: record.state,
    ...(record.error === null ? {} : { error: record.error }),
    queuedAt: record.queuedAt,
    ...(record.finishedAt === null ? {} : { finishedAt: record.finishedAt }),
    ...(record.reports === null ? {} : { reports: record.reports as IngestReport[] }),
  };
}
