/**
 * Transcript uploads run as jobs: the request is answered at once with a job id, and the job's
 * state and reports are read from `/v1/jobs/{id}`. Jobs live in this process's memory, per
 * tenant; what they store is in the store as it lands, and ingest is resumable, so uploading the
 * same transcript again after a restart finishes what a killed job left.
 */
import { randomUUID } from "node:crypto";
import type { IngestReport } from "../engine/ingest.js";
import type { Memlane } from "../engine/memlane.js";

export interface IngestJob {
  id: string;
  kind: "ingest";
  tenant: string;
  state: "queued" | "running" | "done" | "failed";
  error?: string;
  queuedAt: string;
  finishedAt?: string;
  reports?: IngestReport[];
}

/** The ingest jobs of one server, oldest first; finished ones beyond `keep` are dropped. */
export class IngestJobs {
  private readonly jobs = new Map<string, IngestJob>();
  private readonly running = new Set<Promise<void>>();
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly keep = 1000) {}

  /**
   * Starts ingesting already validated transcripts in the tenant of `mem`, one upload at a time
   * after those before it; returns the job.
   */
  start(mem: Memlane, transcripts: unknown[]): IngestJob {
    const job: IngestJob = {
      id: `ingest-${randomUUID()}`,
      kind: "ingest",
      tenant: mem.tenantId,
      state: "queued",
      queuedAt: new Date().toISOString(),
    };
    this.jobs.set(job.id, job);
    this.prune();
    // One upload at a time: two uploads of the same session must not interleave their checks.
    const run = this.tail.then(async () => {
      job.state = "running";
      try {
        job.reports = await mem.ingestAll(transcripts);
        job.state = "done";
      } catch (error) {
        job.state = "failed";
        job.error = (error as Error)?.message ?? String(error);
      } finally {
        job.finishedAt = new Date().toISOString();
      }
    });
    this.tail = run;
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return { ...job };
  }

  /** The tenant's job with this id; undefined for another tenant's. */
  get(tenant: string, id: string): IngestJob | undefined {
    const job = this.jobs.get(id);
    return job && job.tenant === tenant ? { ...job } : undefined;
  }

  /** The tenant's jobs, oldest first. */
  list(tenant: string): IngestJob[] {
    return [...this.jobs.values()].filter((j) => j.tenant === tenant).map((j) => ({ ...j }));
  }

  /** Resolves when every job started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private prune(): void {
    for (const [id, job] of this.jobs) {
      if (this.jobs.size <= this.keep) break;
      if (job.finishedAt) this.jobs.delete(id);
    }
  }
}
