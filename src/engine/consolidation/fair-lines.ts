/**
 * Work waiting in lines, one per tenant and, within a tenant, one per agent, served in turn: the
 * next item comes from the tenant served longest ago, and within it from the agent served longest
 * ago. A tenant that queues a hundred items waits its turn like one that queues one, so it cannot
 * make another wait behind all of its work. At most `concurrency` items run at once, at most
 * `perTenant` of one tenant (by default all but one of them, so a tenant whose work is slow, a
 * drip-feeding model, leaves a place free for the others), and never two of one agent: an
 * agent's items run one after another, in the order they were queued.
 */
import { compositeKey } from "../../core/ids.js";

export class FairLines<T> {
  /** Each tenant's agents and their queued items. */
  private readonly tenants = new Map<string, Map<string, T[]>>();
  /** When each tenant, and each agent (tenant and agent), was last served: a count of items started. */
  private readonly served = new Map<string, number>();
  /** Agents (tenant and agent) with an item running. */
  private readonly busy = new Set<string>();
  /** Items running per tenant. */
  private readonly runningOf = new Map<string, number>();
  private started = 0;
  private running = 0;
  private waiting = 0;

  private readonly perTenant: number;

  constructor(
    private readonly concurrency: number,
    private readonly run: (item: T) => Promise<void>,
    perTenant?: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, not ${concurrency}`);
    this.perTenant = perTenant ?? Math.max(1, concurrency - 1);
    if (!Number.isInteger(this.perTenant) || this.perTenant < 1)
      throw new RangeError(`perTenant must be a whole number of at least 1, not ${perTenant}`);
  }

  /** Items queued and not started yet. */
  get queued(): number {
    return this.waiting;
  }

  /** Items running now. */
  get active(): number {
    return this.running;
  }

  /** Queues an item at the end of its agent's line, and starts what may start. */
  push(tenant: string, agent: string, item: T): void {
    const agents = this.tenants.get(tenant) ?? new Map<string, T[]>();
    this.tenants.set(tenant, agents);
    const line = agents.get(agent) ?? [];
    agents.set(agent, line);
    line.push(item);
    this.waiting++;
    this.pump();
  }

  /**
   * The queued items in the order they would start if nothing else were queued meanwhile and
   * each ran alone: where each stands in the line.
   */
  order(): T[] {
    // Served in turn from here on: tenants from the one served longest ago, each giving the next
    // item of its agent served longest ago, the agent then going to the back. One pass over the
    // items, not a search per item: a long line costs what its length does.
    const at = (key: string) => this.served.get(key) ?? -1;
    const rounds = [...this.tenants]
      .sort(([a], [b]) => at(a) - at(b))
      .map(([tenant, agents]) => ({
        agents: [...agents]
          .sort(([a], [b]) => at(compositeKey(tenant, a)) - at(compositeKey(tenant, b)))
          .map(([, items]) => [...items]),
      }));
    const out: T[] = [];
    let left = rounds.filter((t) => t.agents.length > 0);
    while (left.length > 0) {
      for (const t of left) {
        const line = t.agents.shift()!;
        out.push(line.shift()!);
        if (line.length > 0) t.agents.push(line);
      }
      left = left.filter((t) => t.agents.length > 0);
    }
    return out;
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const next = pick(
        this.tenants,
        this.served,
        (key) => this.busy.has(key),
        (tenant) => (this.runningOf.get(tenant) ?? 0) >= this.perTenant,
      );
      if (!next) return;
      const { tenant, agent } = next;
      const key = compositeKey(tenant, agent);
      const agents = this.tenants.get(tenant)!;
      const line = agents.get(agent)!;
      const item = line.shift()!;
      if (line.length === 0) agents.delete(agent);
      if (agents.size === 0) this.tenants.delete(tenant);
      this.waiting--;
      this.served.set(tenant, ++this.started);
      this.served.set(key, this.started);
      this.running++;
      this.busy.add(key);
      this.runningOf.set(tenant, (this.runningOf.get(tenant) ?? 0) + 1);
      void this.run(item)
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.busy.delete(key);
          this.forgetIdle(tenant, agent);
          this.pump();
        });
    }
  }

  /**
   * Forgets when an agent (and its tenant) was served once it has nothing queued or running, so
   * what is kept grows with the work waiting, not with every agent ever seen. One that comes back
   * counts as never served: it had no share of the line meanwhile.
   */
  private forgetIdle(tenant: string, agent: string): void {
    const left = (this.runningOf.get(tenant) ?? 1) - 1;
    if (left > 0) this.runningOf.set(tenant, left);
    else this.runningOf.delete(tenant);
    const agents = this.tenants.get(tenant);
    if (!agents?.has(agent)) this.served.delete(compositeKey(tenant, agent));
    if (!agents && left <= 0) this.served.delete(tenant);
  }
}

/**
 * The tenant served longest ago that has an item that may start (one never served first, then in
 * the order they came) and fewer running than its share, and in it the agent served longest ago.
 */
function pick<T>(
  tenants: Map<string, Map<string, T[]>>,
  served: Map<string, number>,
  busy: (agentKey: string) => boolean,
  full: (tenant: string) => boolean,
): { tenant: string; agent: string } | null {
  let best: { tenant: string; agent: string; tenantAt: number; agentAt: number } | null = null;
  for (const [tenant, agents] of tenants) {
    const tenantAt = served.get(tenant) ?? -1;
    if ((best && tenantAt >= best.tenantAt) || full(tenant)) continue;
    for (const [agent, line] of agents) {
      const key = compositeKey(tenant, agent);
      if (line.length === 0 || busy(key)) continue;
      const agentAt = served.get(key) ?? -1;
      if (!best || best.tenant !== tenant || agentAt < best.agentAt)
        best = { tenant, agent, tenantAt, agentAt };
    }
  }
  return best && { tenant: best.tenant, agent: best.agent };
}
