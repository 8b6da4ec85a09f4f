/**
 * Uploads that cannot be ingested: one whose sessions fail to
 * consolidate is a failed job, not a done one (its error names the sessions, its reports are
 * kept, so a client can tell and `retry`); one that breaks the transcript's rules (an unknown
 * speaker) is refused before it is acknowledged.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { demoTranscript } from "../../../test/fixtures/engine.js";
import { finished, testService } from "../../../test/fixtures/test-service.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";

describe("service: an upload with failed sessions", () => {
  it("ends failed, naming the sessions, with its reports", async () => {
    // Every summary the model writes fails its schema: every session fails to consolidate.
    const broken = scriptedLlm({ byName: { summarize: () => "not json at all" } });
    const s = await testService({ engine: { chat: broken, cognition: "llm" } });
    try {
      const upload = await s.call(s.acme, "POST", "/v1/ingest", demoTranscript);
      assert.equal(upload.status, 202);
      const { job } = (await upload.json()) as { job: { id: string } };
      const read = (await finished(s, s.acme, job.id)) as {
        state: string;
        error?: string;
        reports?: { failed: number }[];
      };
      assert.equal(read.state, "failed");
      assert.match(read.error ?? "", /2 session\(s\) failed to consolidate: ava\/s1, ava\/s2/);
      assert.equal(read.reports?.[0]?.failed, 2);
    } finally {
      await s.close();
    }
  });
});

describe("service: an upload that cannot be ingested", () => {
  it("is refused before it is acknowledged: an unknown speaker is a 400 naming the turn, and no job is made", async () => {
    const s = await testService();
    try {
      const stranger = JSON.parse(
        JSON.stringify(demoTranscript).replace('"speaker":"sam"', '"speaker":"zed"'),
      );
      const upload = await s.call(s.acme, "POST", "/v1/ingest", stranger);
      assert.equal(upload.status, 400);
      const body = (await upload.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, "INVALID_INPUT");
      assert.match(body.error.message, /unknown speaker "zed"/);
      const jobs = (await (await s.call(s.acme, "GET", "/v1/jobs")).json()) as { jobs: unknown[] };
      assert.deepEqual(jobs.jobs, []);
    } finally {
      await s.close();
    }
  });
});
