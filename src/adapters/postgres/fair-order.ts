/**
 * Where each waiting job of the Postgres queue stands in its line: the order workers would take
 * them in if nothing else were queued meanwhile and each ran alone, worked out from what the job
 * table says now (`PgBossTables.listJobs`). It plays the queue's own rule forward: only the first
 * unfinished job of each scope (tenant and agent) is due, the due job with the smallest tag runs
 * next (then the one queued first), and when it finishes the scope's next job gets its tag the
 * way `PgBossTables.unparkHead` gives it. That is the rule that makes tenants, and the agents
 * of a tenant, take turns; this file only predicts it.
 */

/** An unfinished job as the order needs it. */
export interface LineJob {
  id: string;
  tenant: string;
  agent: string;
  /** Running somewhere now: it finishes before anything waiting starts. */
  running: boolean;
  /** Its tag (the negated pg-boss priority), or null while it is parked behind its scope. */
  tag: number | null;
}

/**
 * Positions of the waiting jobs, 1 runs next. `jobs` are the unfinished jobs in queue order
 * (created_on, id), which is each scope's order.
 */
export function queuePositions(jobs: LineJob[]): Map<string, number> {
  const scopes = new Map<string, LineJob[]>();
  for (const job of jobs) {
    const key = JSON.stringify([job.tenant, job.agent]);
    const line = scopes.get(key) ?? [];
    line.push(job);
    scopes.set(key, line);
  }
  const seq = new Map(jobs.map((j, i) => [j.id, i]));
  const due = new Heap<{ job: LineJob; tag: number }>((a, b) =>
    a.tag !== b.tag ? a.tag - b.tag : seq.get(a.job.id)! - seq.get(b.job.id)!,
  );
  /** The tags of each tenant's due jobs, with how many hold each. */
  const tenantTags = new Map<string, Map<number, number>>();
  const add = (job: LineJob, tag: number) => {
    due.push({ job, tag });
    const tags = tenantTags.get(job.tenant) ?? new Map<number, number>();
    tags.set(tag, (tags.get(tag) ?? 0) + 1);
    tenantTags.set(job.tenant, tags);
  };
  const remove = (job: LineJob, tag: number) => {
    const tags = tenantTags.get(job.tenant)!;
    const left = tags.get(tag)! - 1;
    if (left > 0) tags.set(tag, left);
    else tags.delete(tag);
  };
  let served = 0;
  /**
   * The tag a scope's next job gets when it becomes due (unparkHead's rule), after the scope's
   * job with tag `ran` has run.
   */
  const nextTag = (tenant: string, ran: number | null) => {
    const v = due.peek()?.tag ?? served;
    const tags = [...(tenantTags.get(tenant)?.keys() ?? [])];
    return Math.max(v, tags.length ? Math.max(...tags) + 1 : v, ran === null ? v : ran + 1);
  };
  // Each scope's waiting jobs in order; the first is due now if it already holds a tag, or
  // becomes due (and is tagged) once the scope's running job has finished.
  const following = new Map<string, LineJob>();
  const later: { first: LineJob; ran: number | null }[] = [];
  for (const line of scopes.values()) {
    const waiting = line.filter((j) => !j.running);
    waiting.forEach((j, i) => {
      if (i > 0) following.set(waiting[i - 1]!.id, j);
    });
    const first = waiting[0];
    if (!first) continue;
    if (first === line[0] && first.tag !== null) add(first, first.tag);
    else later.push({ first, ran: first === line[0] ? null : line[0]!.tag });
  }
  for (const { first, ran } of later) add(first, nextTag(first.tenant, ran));
  const positions = new Map<string, number>();
  for (let next = due.pop(); next; next = due.pop()) {
    const { job, tag } = next;
    remove(job, tag);
    served = tag;
    positions.set(job.id, positions.size + 1);
    const then = following.get(job.id);
    if (then) add(then, nextTag(then.tenant, tag));
  }
  return positions;
}

/** A binary heap: the smallest item by `compare` first. */
class Heap<T> {
  private readonly items: T[] = [];
  constructor(private readonly compare: (a: T, b: T) => number) {}

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (this.compare(a[i]!, a[parent]!) >= 0) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.compare(a[l]!, a[m]!) < 0) m = l;
        if (r < a.length && this.compare(a[r]!, a[m]!) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
