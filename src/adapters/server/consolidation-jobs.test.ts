/**
 * A consolidation job id the API returned resolves for as long as its session is
 * kept — after other tenants' closes, and after a restart — and only in its own tenant.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { InProcessJobQueue } from "../../engine/consolidation/job-queue.js";
import { openSqliteKeyStore } from "../../store/sqlite/key-store.js";
import { createApiKey } from "./api-keys.js";
import { createService } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-job-ids-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { debug() {}, warn() {}, error() {} };

describe("consolidation job ids", () => {
  it("keep one tenant's finished jobs listed whatever another tenant closes", async () => {
    const queue = new InProcessJobQueue();
    queue.process(
      async () => true,
      () => undefined,
    );
    const { done } = await queue.enqueue({
      kind: "consolidate",
      tenant: "acme",
      agent: "ava",
      sessionId: "s1",
    });
    const mine = (await done).id;
    for (let i = 0; i < 201; i++)
      await (await queue.enqueue({ kind: "consolidate", tenant: "globex", agent: "ava", sessionId: `g${i}` }))
        .done;
    assert.ok(
      queue.jobs().some((j) => j.id === mine),
      "acme's job is still listed",
    );
    assert.equal(queue.jobs().filter((j) => j.tenant === "globex").length, 200, "globex keeps its last 200");
  });

  it("resolve after a restart, from the store, and only in their tenant", async () => {
    const db = join(dir, "jobs.db");
    const keys = await openSqliteKeyStore(join(dir, "keys.db"));
    const acme = (await createApiKey(keys, { tenant: "acme" })).key;
    const globex = (await createApiKey(keys, { tenant: "globex" })).key;
    const serve = async () => {
      const mem = await testMemlane({ store: db, strategy: "accumulate", logger: quiet });
      const service = createService({ mem, keys, logger: quiet });
      const call = (key: string, method: string, path: string, body?: unknown) =>
        service.app.request(path, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body ? { "content-type": "application/json" } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
      return { mem, service, call };
    };
    const first = await serve();
    await first.call(acme, "POST", "/v1/sessions", { agent: "ava", partner: "sam", id: "s1" });
    await first.call(acme, "POST", "/v1/agents/ava/sessions/s1/turns", {
      speaker: "sam",
      text: "I adopted a beagle.",
    });
    const closed = (await (await first.call(acme, "POST", "/v1/agents/ava/sessions/s1/close")).json()) as {
      job: { id: string };
    };
    await first.mem.idle();
    await first.service.close();
    await first.mem.close();

    const second = await serve();
    const read = await second.call(acme, "GET", `/v1/jobs/${closed.job.id}`);
    assert.equal(read.status, 200);
    const job = (await read.json()) as { state: string; kind: string; sessionId: string };
    assert.deepEqual([job.kind, job.state, job.sessionId], ["consolidate", "done", "s1"]);
    assert.equal(
      (await second.call(globex, "GET", `/v1/jobs/${closed.job.id}`)).status,
      404,
      "not another tenant's",
    );
    assert.equal(
      (await second.call(acme, "GET", "/v1/jobs/cj_bm9wZQ")).status,
      404,
      "a made-up id is not found",
    );
    await second.service.close();
    await second.mem.close();
    await keys.close();
  });
});
