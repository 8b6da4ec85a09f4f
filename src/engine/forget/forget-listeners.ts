/**
 * Who holds transcripts of a scope that are not stored yet, and must hear of a forget: a running
 * ingest holds its validated copy in memory, and the service's upload jobs hold theirs until they
 * run. A forget tells them as it begins, before the store erases anything, so a session they store
 * afterwards already lacks what was forgotten; and it waits for them to drop their own copies
 * (`erased`) before it answers. One registry per engine, shared by its tenant views.
 */
import type { PendingForget } from "../../store/pending-forget.js";

/** A forget, as those holding a scope's pending transcripts hear of it. */
export interface ForgetNotice extends PendingForget {
  tenant: string;
  agent: string;
}

/** One holder of pending transcripts. */
export interface ForgetListener {
  /** Told synchronously as a forget begins, before anything is erased. */
  starting?(notice: ForgetNotice): void;
  /** The people and sessions it holds for an agent, so that a forget may name them. */
  pending?(agent: string): { people: string[]; sessions: string[] };
  /** Awaited after the store erased: drops the copies it keeps elsewhere. A failure fails the forget. */
  erased?(notice: ForgetNotice): Promise<void>;
}

/** The listeners of one engine, each for one tenant. */
export class ForgetListeners {
  private readonly listeners = new Set<{ tenant: string; listener: ForgetListener }>();

  /** Adds a listener for a tenant's forgets; returns the function that removes it. */
  add(tenant: string, listener: ForgetListener): () => void {
    const entry = { tenant, listener };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** The tenant's listeners now. */
  of(tenant: string): ForgetListener[] {
    return [...this.listeners].filter((e) => e.tenant === tenant).map((e) => e.listener);
  }
}

const registries = new WeakMap<object, ForgetListeners>();

/** The listeners of the engine `owner` stands for (made on first use). */
export function forgetListenersOf(owner: object): ForgetListeners {
  let registry = registries.get(owner);
  if (!registry) {
    registry = new ForgetListeners();
    registries.set(owner, registry);
  }
  return registry;
}
