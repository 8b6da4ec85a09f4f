/**
 * What a conformance suite is given: a factory of fresh, empty stores. Shared by the store suite
 * and its process cases (store-process-cases.ts), which import it from here, not from each other.
 */
import type { MemoryStore } from "../store/memory-store.js";

export type StoreFactory = () => Promise<{
  store: MemoryStore;
  cleanup?: () => Promise<void> | void;
  /**
   * How another process opens the same store (anything `openMemlane`'s `store` accepts, such as
   * "sqlite:/tmp/x.db"). Without it, the crash and concurrency cases are skipped, saying why.
   */
  spec?: string;
  /**
   * The store's own consistency check after a process was killed writing to it (SQLite:
   * integrity and foreign keys); throws when broken.
   */
  verify?: () => Promise<void> | void;
}>;
