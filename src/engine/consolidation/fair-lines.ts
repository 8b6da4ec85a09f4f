/**
 * Work waiting in lines, one per tenant and, within a tenant, one per agent, served in turn: the
 * next item comes from the tenant served longest ago, and within it from the agent served longest
 * ago. A tenant that queues a hundred items waits its turn like one that queues one, so it cannot
 * make another wait behind all of its work. At most `concurrency` items run at once, and never two
 * of one agent: an agent's items run one after another, in the order they were queued.
 */
import { compositeKey } from "../../core/ids.js";

export class FairLines<T> {
  /** Tenants in serving order (the next served first), each with its agents in serving order. */
  private readonly tenants = new Map<string, Map<string, T[]>>();
  /** Agents (tenant and agent) with an item running. */
  private readonly busy = new Set<string>();
  private running = 0;
  private waiting = 0;

  constructor(
    private readonly concurrency: number,
    private readonly run: (item: T) => Promise<void>,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, not ${concurrency}`);
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
    const lines = [...this.tenants].map(([tenant, agents]) => ({
      tenant,
      agents: [...agents].map(([agent, items]) => ({ agent, items: [...items] })),
    }));
    const out: T[] = [];
    while (lines.some((t) => t.agents.some((a) => a.items.length))) {
      for (const t of lines) {
        const a = t.agents.find((x) => x.items.length);
        if (!a) continue;
        out.push(a.items.shift()!);
        // The agent just served goes to the back of its tenant's line.
        t.agents.splice(t.agents.indexOf(a), 1);
        t.agents.push(a);
      }
    }
    return out;
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const next = this.take();
      if (!next) return;
      const key = compositeKey(next.tenant, next.agent);
      this.running++;
      this.busy.add(key);
      void this.run(next.item)
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.busy.delete(key);
          this.pump();
        });
    }
  }

  /** The next item that may start: from the tenant, then the agent, served longest ago. */
  private take(): { tenant: string; agent: string; item: T } | null {
    for (const [tenant, agents] of this.tenants)
      for (const [agent, line] of agents) {
        if (this.busy.has(compositeKey(tenant, agent))) continue;
        const item = line.shift()!;
        this.waiting--;
        // Served: the agent goes to the back of its tenant's line, the tenant to the back of all.
        agents.delete(agent);
        if (line.length) agents.set(agent, line);
        this.tenants.delete(tenant);
        if (agents.size) this.tenants.set(tenant, agents);
        return { tenant, agent, item };
      }
    return null;
  }
}
