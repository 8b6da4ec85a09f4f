import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testService } from "../../../test/fixtures/test-service.js";

describe("service: sessions left open", () => {
  it("lists open sessions by status and partner, and closes an empty one with nothing to do", async () => {
    const s = await testService();
    for (const [id, partner] of [
      ["a", "sam"],
      ["b", "kim"],
    ])
      assert.equal((await s.call(s.acme, "POST", "/v1/sessions", { agent: "ava", partner, id })).status, 201);
    await s.call(s.acme, "POST", "/v1/agents/ava/sessions/a/turns", {
      speaker: "sam",
      text: "I live in Leeds.",
    });

    const open = (await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions?status=open")).json()) as {
      sessions: { id: string }[];
    };
    assert.deepEqual(open.sessions.map((x) => x.id).sort(), ["a", "b"]);
    const kim = (await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions?partner=kim")).json()) as {
      sessions: { id: string }[];
    };
    assert.deepEqual(
      kim.sessions.map((x) => x.id),
      ["b"],
    );
    const bad = await s.call(s.acme, "GET", "/v1/agents/ava/sessions?status=gone");
    assert.equal(bad.status, 400);

    // The empty session ends at once: its job is done, and it is no longer open.
    const closed = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/b/close");
    assert.equal(closed.status, 202);
    const { job } = (await closed.json()) as { job: { state: string; sessionId: string } };
    assert.deepEqual([job.state, job.sessionId], ["done", "b"]);
    const left = (await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions?status=open")).json()) as {
      sessions: { id: string }[];
    };
    assert.deepEqual(
      left.sessions.map((x) => x.id),
      ["a"],
    );
    await s.close();
  });
});
