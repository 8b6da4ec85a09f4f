/**
 * What a stopped server left half done, finished when it starts again: a session it acknowledged
 * closing (202) but had not consolidated when it was killed stays `closed` in the store with all
 * its turns; this queues its consolidation again. Open sessions stay open (their clients may go
 * on), and failed work waits for an explicit retry (a model may still be down).
 */
import type { Memlane } from "../../engine/memlane.js";

/** One session whose consolidation was queued again. */
export interface ResumedSession {
  tenant: string;
  agent: string;
  sessionId: string;
  state: string;
}

/**
 * Consolidates every closed-but-unconsolidated session of the given tenants (those with API
 * keys, for `memlane serve`), one at a time; resolves with what ran.
 * @example await resumeInterrupted(mem, ["acme"]);
 */
export async function resumeInterrupted(mem: Memlane, tenants: string[]): Promise<ResumedSession[]> {
  const resumed: ResumedSession[] = [];
  for (const tenant of [...new Set(tenants)]) {
    const view = mem.tenant(tenant);
    for (const agent of await view.agents())
      for (const { session } of await view.waiting(agent)) {
        if (session.status !== "closed") continue;
        const { jobs } = await view.retry(agent, session.id);
        for (const job of jobs) resumed.push({ tenant, agent, sessionId: job.sessionId, state: job.state });
      }
  }
  return resumed;
}
