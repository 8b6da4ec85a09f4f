/**
 * The lease of a keyed one-call write that goes turn by turn: who is storing the session's
 * messages, and until when. It lives in the session's meta, in the store, so every replica and
 * every restart reads the same one. The call that stores renews it every third of its length;
 * a call that ends (done or failed) removes it. A retry that finds fewer messages than it sends
 * reads it: live, the first call is still storing (409, retry shortly); expired or absent, that
 * call died part-way (a killed process, a lost machine) and the retry takes the lease and stores
 * the rest.
 *
 * The lease only spares a retry from racing a live call; it is not what keeps two calls from
 * both appending. Each message is stored under an id of its own place (`<session>:<n>`), so
 * of two calls storing the same message, the store takes one and refuses the other.
 * Wall clocks of replicas are compared, so the length is far above any skew between them.
 */
import { randomUUID } from "node:crypto";
import type { Scope, Session } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";

/** The session meta key holding the lease. */
export const WRITE_LEASE_KEY = "memlane.lease";

/** How long a lease lasts unrenewed: a call silent this long is taken for dead. */
export const WRITE_LEASE_MS = 30_000;

/** A lease as kept in session meta. */
export interface WriteLease {
  /** The call holding it (a random id per call). */
  holder: string;
  /** Wall-clock time (ISO) after which it has lapsed. */
  until: string;
}

/** A lease for `holder` from now. */
export function freshLease(holder: string, now = Date.now()): WriteLease {
  return { holder, until: new Date(now + WRITE_LEASE_MS).toISOString() };
}

/** A new holder id, one per call. */
export function newHolder(): string {
  return randomUUID();
}

/** The session's lease, if it holds one. */
export function leaseOf(session: Session): WriteLease | null {
  const lease = session.meta[WRITE_LEASE_KEY] as Partial<WriteLease> | undefined;
  return lease && typeof lease.holder === "string" && typeof lease.until === "string"
    ? (lease as WriteLease)
    : null;
}

/** True while a call is storing the session's messages: its lease has not lapsed. */
export function leaseLive(session: Session, now = Date.now()): boolean {
  const lease = leaseOf(session);
  return lease !== null && Date.parse(lease.until) > now;
}

/** A held lease: renewed in the background until `end()`. */
export interface HeldLease {
  /** Stops renewing and removes the lease if it is still this call's. */
  end(): Promise<void>;
}

/**
 * Writes `holder`'s lease into the session now (taking it over from a lapsed one) and renews it
 * every third of its length until `end()`. Renewals that fail are left to the next tick: the
 * lease lapsing is what a dead call looks like, and a live one is still fenced by its turn ids.
 */
export async function holdLease(
  store: MemoryStore,
  scope: Scope,
  sessionId: string,
  holder: string,
  options: { written?: boolean } = {},
): Promise<HeldLease> {
  const write = async (change: (meta: Record<string, unknown>) => Record<string, unknown> | null) => {
    const session = await store.getSession(scope, sessionId);
    if (!session) return;
    const meta = change({ ...session.meta });
    if (meta) await store.write(scope, { sessionUpdates: [{ id: sessionId, meta }] });
  };
  const renew = () => write((meta) => ({ ...meta, [WRITE_LEASE_KEY]: freshLease(holder) }));
  if (!options.written) await renew();
  let ended = false;
  // One write at a time, so the removal at the end is never overtaken by a renewal.
  let last: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    last = last.then(() => (ended ? undefined : renew().catch(() => undefined)));
  }, WRITE_LEASE_MS / 3);
  timer.unref();
  return {
    async end() {
      ended = true;
      clearInterval(timer);
      await last;
      await write((meta) => {
        if ((meta[WRITE_LEASE_KEY] as WriteLease | undefined)?.holder !== holder) return null;
        delete meta[WRITE_LEASE_KEY];
        return meta;
      }).catch(() => undefined);
    },
  };
}
