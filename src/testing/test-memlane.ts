/** An engine on an in-memory store with the hashing embedder: fast, deterministic, offline. */
import type { MemlaneConfig } from "../engine/config.js";
import type { Memlane } from "../engine/memlane.js";
import { openMemlane } from "../engine/open-memlane.js";

export function testMemlane(config: MemlaneConfig = {}): Promise<Memlane> {
  return openMemlane({ store: ":memory:", embedder: "hash", tenant: "test", ...config });
}
