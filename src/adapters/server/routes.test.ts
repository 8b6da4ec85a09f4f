import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { demoTranscript } from "../../../test/fixtures/engine.js";
import { finished, type TestService, testService } from "../../../test/fixtures/test-service.js";

describe("service: the routes over one tenant", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  it("starts a session, records turns, replies, closes it, and recalls what was consolidated", async () => {
    const started = await s.call(s.acme, "POST", "/v1/sessions", {
      agent: "ava",
      partner: "sam",
      id: "live",
      at: "2024-05-01T10:00",
    });
    assert.equal(started.status, 201);
    const session = (await started.json()) as { id: string; tenant: string; status: string };
    assert.deepEqual([session.id, session.tenant, session.status], ["live", "acme", "open"]);

    const turn = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/turns", {
      speaker: "sam",
      text: "I adopted a beagle called Biscuit and I keep bees on my roof.",
    });
    assert.equal(turn.status, 201);
    assert.equal(((await turn.json()) as { index: number }).index, 0);

    const reply = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/reply", {});
    assert.equal(reply.status, 200);
    const replied = (await reply.json()) as { text: string; turn: { speaker: string; meta: object } };
    assert.ok(replied.text.length > 0);
    assert.equal(replied.turn.speaker, "ava");
    assert.deepEqual(replied.turn.meta, { generated: true });

    const read = (await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions/live")).json()) as {
      turns: unknown[];
    };
    assert.equal(read.turns.length, 2);

    const closed = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/close");
    assert.equal(closed.status, 202);
    const { job } = (await closed.json()) as { job: { id: string; kind: string } };
    assert.equal(job.kind, "consolidate");
    assert.equal((await finished(s, s.acme, job.id)).state, "done");

    const recall = await s.call(s.acme, "POST", "/v1/recall", {
      agent: "ava",
      about: "sam",
      query: "what dog does Sam have?",
    });
    assert.equal(recall.status, 200);
    const hits = ((await recall.json()) as { hits: { kind: string; text: string; explanation: object }[] })
      .hits;
    assert.ok(hits.length > 0 && hits.every((h) => h.kind === "memory"), JSON.stringify(hits));
    assert.ok(
      hits.some((h) => /beagle/i.test(h.text)),
      JSON.stringify(hits),
    );
    assert.equal("memory" in hits[0]!, false, "hits leave the full rows out");

    const turns = (await (
      await s.call(s.acme, "POST", "/v1/recall", {
        agent: "ava",
        query: "bees",
        units: "turns",
        about: "sam",
      })
    ).json()) as { hits: { kind: string; text: string }[] };
    assert.ok(turns.hits.length > 0 && turns.hits.every((h) => h.kind === "turn"));

    const again = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/turns", {
      speaker: "sam",
      text: "hi",
    });
    assert.equal(again.status, 409, "a closed session takes no more turns: a conflict with its state");
    assert.equal(((await again.json()) as { error: { field: string } }).error.field, "sessionId");
    const closeAgain = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/close");
    assert.equal(closeAgain.status, 409, "nor is it closed twice");
  });

  it("answers 405 with Allow for a known path under another method, and 404 for an unknown path", async () => {
    const get = await s.call(s.acme, "GET", "/v1/recall");
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    assert.equal(((await get.json()) as { error: { code: string } }).error.code, "METHOD_NOT_ALLOWED");
    const put = await s.call(s.acme, "PUT", "/v1/agents/ava/sessions/live");
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, HEAD");
    // The MCP endpoint is stateless: POST only, no event stream to GET, no session to DELETE.
    for (const method of ["GET", "DELETE"]) {
      const mcp = await s.call(s.acme, method, "/mcp");
      assert.equal(mcp.status, 405, `${method} /mcp`);
      assert.equal(mcp.headers.get("allow"), "POST");
    }
    assert.equal((await s.call(s.acme, "GET", "/v1/nothing-here")).status, 404);
    // A body that is not JSON: 415 with its own code (it was HTTP_ERROR, a code no page listed).
    const text = await s.app.request("/v1/recall", {
      method: "POST",
      headers: { authorization: `Bearer ${s.acme}`, "content-type": "text/plain" },
      body: "pets?",
    });
    assert.equal(text.status, 415);
    assert.equal(((await text.json()) as { error: { code: string } }).error.code, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("ingests a transcript as a job, then lists, explains and forgets its memories", async () => {
    // The demo transcript, as another agent's (ivy says ava's lines).
    const ivy = JSON.parse(JSON.stringify(demoTranscript).replaceAll('"ava"', '"ivy"'));
    const upload = await s.call(s.acme, "POST", "/v1/ingest", ivy);
    assert.equal(upload.status, 202);
    const { job } = (await upload.json()) as { job: { id: string; kind: string; state: string } };
    assert.equal(job.kind, "ingest");
    const done = (await finished(s, s.acme, job.id)) as { state: string; reports: { ingested: number }[] };
    assert.equal(done.state, "done");
    assert.equal(done.reports[0]!.ingested, 2);

    const jobs = (await (await s.call(s.acme, "GET", "/v1/jobs")).json()) as { jobs: { id: string }[] };
    assert.ok(jobs.jobs.some((j) => j.id === job.id));
    const agents = (await (await s.call(s.acme, "GET", "/v1/agents")).json()) as { agents: string[] };
    assert.ok(agents.agents.includes("ivy"));

    const list = (await (await s.call(s.acme, "GET", "/v1/agents/ivy/memories?about=sam")).json()) as {
      memories: { id: string; text: string; about: string }[];
    };
    assert.ok(list.memories.length >= 2 && list.memories.every((m) => m.about === "sam"));
    const all = (await (await s.call(s.acme, "GET", "/v1/agents/ivy/memories?status=any")).json()) as {
      memories: unknown[];
    };
    assert.ok(all.memories.length >= list.memories.length);

    const target = list.memories[0]!;
    const history = await s.call(s.acme, "GET", `/v1/agents/ivy/memories/${target.id}/history`);
    assert.equal(history.status, 200);
    const h = (await history.json()) as { memory: { id: string }; operations: unknown[] };
    assert.equal(h.memory.id, target.id);
    assert.ok(h.operations.length > 0);
    const timeline = await s.call(s.acme, "GET", `/v1/agents/ivy/memories/${target.id}/timeline`);
    assert.equal(timeline.status, 200);
    assert.ok(
      ((await timeline.json()) as { memories: { id: string }[] }).memories.some((m) => m.id === target.id),
    );

    const sessions = (await (await s.call(s.acme, "GET", "/v1/agents/ivy/sessions")).json()) as {
      sessions: { id: string; status: string }[];
    };
    assert.deepEqual(
      sessions.sessions.map((x) => [x.id, x.status]),
      [
        ["s1", "consolidated"],
        ["s2", "consolidated"],
      ],
    );
    const failures = (await (await s.call(s.acme, "GET", "/v1/agents/ivy/failures")).json()) as {
      failures: unknown[];
    };
    assert.deepEqual(failures.failures, []);
    const retry = await s.call(s.acme, "POST", "/v1/agents/ivy/retry", {});
    assert.equal(retry.status, 200);
    assert.deepEqual(await retry.json(), { turns: [], jobs: [], steps: [] });

    const forget = await s.call(s.acme, "POST", "/v1/forget", { agent: "ivy", memoryIds: [target.id] });
    assert.equal(forget.status, 200);
    assert.equal(((await forget.json()) as { memories: number }).memories, 1);
    const gone = await s.call(s.acme, "GET", `/v1/agents/ivy/memories/${target.id}/history`);
    assert.equal(gone.status, 404);
  });

  it("refuses a second session with a taken id (409) and a turn by someone not present (400, speaker)", async () => {
    const body = { agent: "ava", partner: "sam", id: "dup" };
    assert.equal((await s.call(s.acme, "POST", "/v1/sessions", body)).status, 201);
    const taken = await s.call(s.acme, "POST", "/v1/sessions", body);
    assert.equal(taken.status, 409);
    assert.equal(((await taken.json()) as { error: { code: string } }).error.code, "CONFLICT");
    const stranger = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/dup/turns", {
      speaker: "zed",
      text: "hello",
    });
    assert.equal(stranger.status, 400);
    assert.equal(((await stranger.json()) as { error: { field: string } }).error.field, "speaker");
  });

  it("answers the health check without a key, and an unknown route with a JSON 404", async () => {
    const health = (await (await s.call(null, "GET", "/health")).json()) as Record<string, unknown>;
    // A lone server: no share of the scopes, and the default budget of its search indexes.
    assert.deepEqual({ ...health, indexes: undefined }, { ok: true, replica: null, indexes: undefined });
    assert.equal((health.indexes as { limit: number }).limit, 1024 ** 3);
    const none = await s.call(s.acme, "GET", "/v1/nothing-here");
    assert.equal(none.status, 404);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, "NOT_FOUND");
  });
});
