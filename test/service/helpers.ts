/** A service over an in-memory engine and key table, with a key per tenant, driven in process. */

import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { createService, type Service } from "../../src/adapters/server/app.js";
import type { MemlaneConfig } from "../../src/engine/config.js";
import type { Memlane } from "../../src/engine/memlane.js";
import { openSqliteIngestJobStore } from "../../src/store/sqlite/ingest-job-store.js";
import { openSqliteKeyStore, type SqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { testMemlane } from "../fixtures/engine.js";

export interface TestService extends Service {
  mem: Memlane;
  keys: SqliteKeyStore;
  acme: string;
  globex: string;
  /** A request with `key` (none when null) and a JSON body. */
  call(key: string | null, method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

const quiet = { debug() {}, warn() {}, error() {} };

/** `engine`: settings of the engine beside the defaults (a broken model, a store that fails). */
export async function testService(
  options: { maxBodyBytes?: number; engine?: MemlaneConfig } = {},
): Promise<TestService> {
  const mem = await testMemlane({ strategy: "carecall", logger: quiet, ...options.engine });
  const keys = await openSqliteKeyStore(":memory:");
  const acme = (await createApiKey(keys, { tenant: "acme", name: "acme-ci" })).key;
  const globex = (await createApiKey(keys, { tenant: "globex" })).key;
  // Ingest jobs go through the SQLite store, as under `memlane serve`.
  const ingestJobs = await openSqliteIngestJobStore(":memory:");
  const service = createService({ mem, keys, ingestJobs, logger: quiet, maxBodyBytes: options.maxBodyBytes });
  const call = async (key: string | null, method: string, path: string, body?: unknown) =>
    service.app.request(path, {
      method,
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    ...service,
    mem,
    keys,
    acme,
    globex,
    call,
    close: async () => {
      await service.close();
      await mem.close();
      await keys.close();
      await ingestJobs.close();
    },
  };
}

/** Polls a job until it has finished; fails after ~5 s. */
export async function finished(s: TestService, key: string, jobId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const job = (await (await s.call(key, "GET", `/v1/jobs/${jobId}`)).json()) as Record<string, unknown>;
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${jobId} did not finish`);
}
