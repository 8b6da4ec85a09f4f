/**
 * An upload whose sessions fail to consolidate is a failed job, not a done one (issue 30, item 6):
 * its error names the sessions, and its reports are kept, so a client can tell and `retry`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { createService } from "../../src/adapters/server/app.js";
import { openSqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { demoTranscript, testMemlane } from "../fixtures/engine.js";

const quiet = { debug() {}, warn() {}, error() {} };

describe("service: an upload with failed sessions", () => {
  it("ends failed, naming the sessions, with its reports", async () => {
    // Every summary the model writes fails its schema: every session fails to consolidate.
    const broken = scriptedLlm({ byName: { summarize: () => "not json at all" } });
    const mem = await testMemlane({ strategy: "carecall", chat: broken, cognition: "llm", logger: quiet });
    const keys = await openSqliteKeyStore(":memory:");
    const { key } = await createApiKey(keys, { tenant: "acme" });
    const service = createService({ mem, keys, logger: quiet });
    const call = (method: string, path: string, body?: unknown) =>
      service.app.request(path, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      const upload = await call("POST", "/v1/ingest", demoTranscript);
      assert.equal(upload.status, 202);
      const { job } = (await upload.json()) as { job: { id: string } };
      let read: { state: string; error?: string; reports?: { failed: number }[] } = { state: "queued" };
      for (let i = 0; i < 500 && (read.state === "queued" || read.state === "running"); i++) {
        await new Promise((r) => setTimeout(r, 20));
        read = (await (await call("GET", `/v1/jobs/${job.id}`)).json()) as typeof read;
      }
      assert.equal(read.state, "failed");
      assert.match(read.error ?? "", /2 session\(s\) failed to consolidate: ava\/s1, ava\/s2/);
      assert.equal(read.reports?.[0]?.failed, 2);
    } finally {
      await service.close();
      await mem.close();
      await keys.close();
    }
  });
});

describe("service: an upload that cannot be ingested", () => {
  it("is refused before it is acknowledged: an unknown speaker is a 400 naming the turn, and no job is made", async () => {
    const mem = await testMemlane({ strategy: "carecall", logger: quiet });
    const keys = await openSqliteKeyStore(":memory:");
    const { key } = await createApiKey(keys, { tenant: "acme" });
    const service = createService({ mem, keys, logger: quiet });
    const call = (method: string, path: string, body?: unknown) =>
      service.app.request(path, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      const stranger = JSON.parse(
        JSON.stringify(demoTranscript).replace('"speaker":"sam"', '"speaker":"zed"'),
      );
      const upload = await call("POST", "/v1/ingest", stranger);
      assert.equal(upload.status, 400);
      const body = (await upload.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, "INVALID_INPUT");
      assert.match(body.error.message, /unknown speaker "zed"/);
      const jobs = (await (await call("GET", "/v1/jobs")).json()) as { jobs: unknown[] };
      assert.deepEqual(jobs.jobs, []);
    } finally {
      await service.close();
      await mem.close();
      await keys.close();
    }
  });
});
