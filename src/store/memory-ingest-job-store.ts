/**
 * Ingest jobs held in this process only: what `createService` uses when it is given no store.
 * Nothing survives a restart; `memlane serve` keeps its jobs in the database instead.
 */
import { ConflictError } from "../core/errors.js";
import { compositeKey } from "../core/ids.js";
import {
  type IngestJobChange,
  type IngestJobRecord,
  type IngestJobStore,
  isFinished,
  type PendingIngestJob,
} from "./ingest-job-store.js";
import { forgetInTranscripts, type PendingForget } from "./pending-forget.js";

/** Ingest jobs in a Map of this process; nothing survives it. */
export class MemoryIngestJobStore implements IngestJobStore {
  /** Keyed by tenant and id; a Map keeps insertion order, which is queue order. */
  private readonly jobs = new Map<string, PendingIngestJob>();

  async add(job: PendingIngestJob): Promise<void> {
    const key = keyOf(job.tenant, job.id);
    if (this.jobs.has(key))
      throw new ConflictError(`An ingest job "${job.id}" exists already`, { field: "id" });
    this.jobs.set(key, structuredClone(job));
  }

  async update(tenant: string, id: string, owner: string, change: IngestJobChange): Promise<boolean> {
    const job = this.jobs.get(keyOf(tenant, id));
    if (!job || job.owner !== owner) return false;
    for (const [field, value] of Object.entries(change))
      if (value !== undefined) Object.assign(job, { [field]: structuredClone(value) });
    if (isFinished(change.state)) job.transcripts = [];
    return true;
  }

  async forgetPending(tenant: string, agent: string, forget: PendingForget): Promise<number> {
    let changed = 0;
    for (const job of this.unfinished()) {
      if (job.tenant !== tenant) continue;
      const left = forgetInTranscripts(job.transcripts, agent, forget);
      if (left === null) continue;
      job.transcripts = left;
      changed++;
    }
    return changed;
  }

  async heartbeat(owner: string, at: string): Promise<number> {
    let renewed = 0;
    for (const job of this.unfinished())
      if (job.owner === owner) {
        job.heartbeatAt = at;
        renewed++;
      }
    return renewed;
  }

  async stale(before: string): Promise<IngestJobRecord[]> {
    return this.unfinished()
      .filter((j) => j.heartbeatAt < before)
      .map(recordOf);
  }

  async claim(
    tenant: string,
    id: string,
    owner: string,
    staleBefore: string,
    at: string,
  ): Promise<PendingIngestJob | null> {
    const job = this.jobs.get(keyOf(tenant, id));
    if (!job || isFinished(job.state) || (job.owner !== owner && job.heartbeatAt >= staleBefore)) return null;
    job.owner = owner;
    job.heartbeatAt = at;
    return structuredClone(job);
  }

  async get(tenant: string, id: string): Promise<IngestJobRecord | null> {
    const job = this.jobs.get(keyOf(tenant, id));
    return job ? recordOf(job) : null;
  }

  async list(tenant: string, limit?: number): Promise<IngestJobRecord[]> {
    const mine = [...this.jobs.values()].filter((j) => j.tenant === tenant);
    return mine.slice(limit === undefined ? 0 : Math.max(0, mine.length - limit)).map(recordOf);
  }

  async prune(tenant: string, keep: number): Promise<number> {
    const mine = [...this.jobs.values()].filter((j) => j.tenant === tenant);
    let dropped = 0;
    for (const job of mine.slice(0, Math.max(0, mine.length - keep)))
      if (isFinished(job.state) && this.jobs.delete(keyOf(job.tenant, job.id))) dropped++;
    return dropped;
  }

  async close(): Promise<void> {}

  private unfinished(): PendingIngestJob[] {
    return [...this.jobs.values()].filter((j) => !isFinished(j.state));
  }
}

function keyOf(tenant: string, id: string): string {
  return compositeKey(tenant, id);
}

function recordOf(job: PendingIngestJob): IngestJobRecord {
  const { transcripts: _transcripts, ...record } = job;
  return structuredClone(record);
}
