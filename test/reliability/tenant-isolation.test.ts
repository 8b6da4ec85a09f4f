import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { demoTranscript } from "../fixtures/engine.js";
import { finished, type TestService, testService } from "../fixtures/test-service.js";

describe("service: tenant isolation through every route", () => {
  let s: TestService;
  let memoryId: string;
  let consolidation: string;
  let ingest: string;
  /** What acme holds, read through acme's own key, to compare after globex's attempts. */
  const acmeState = async () => ({
    sessions: await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions")).json(),
    memories: await (await s.call(s.acme, "GET", "/v1/agents/ava/memories?status=any")).json(),
    open: await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions/open1")).json(),
    summary: await (await s.call(s.acme, "GET", "/v1/agents/ava")).json(),
    graph: await (await s.call(s.acme, "GET", "/v1/agents/ava/graph")).json(),
    operations: await (await s.call(s.acme, "GET", "/v1/agents/ava/operations")).json(),
  });

  before(async () => {
    s = await testService();
    // acme: an ingested history (s1, s2), a closed live session and one left open.
    const up = (await (await s.call(s.acme, "POST", "/v1/ingest", demoTranscript)).json()) as {
      job: { id: string };
    };
    ingest = up.job.id;
    assert.equal((await finished(s, s.acme, ingest)).state, "done");
    await s.call(s.acme, "POST", "/v1/sessions", { agent: "ava", partner: "sam", id: "live" });
    await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/turns", {
      speaker: "sam",
      text: "My sister Jo lives in Oslo.",
    });
    const closed = (await (await s.call(s.acme, "POST", "/v1/agents/ava/sessions/live/close")).json()) as {
      job: { id: string };
    };
    consolidation = closed.job.id;
    assert.equal((await finished(s, s.acme, consolidation)).state, "done");
    await s.call(s.acme, "POST", "/v1/sessions", { agent: "ava", partner: "sam", id: "open1" });
    await s.call(s.acme, "POST", "/v1/agents/ava/sessions/open1/turns", {
      speaker: "sam",
      text: "I bake sourdough.",
    });
    const memories = (await (await s.call(s.acme, "GET", "/v1/agents/ava/memories")).json()) as {
      memories: { id: string }[];
    };
    memoryId = memories.memories[0]!.id;
  });
  after(() => s.close());

  it("gives globex 404 for every read and write naming acme's ids, and never acme's data", async () => {
    const before = await acmeState();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/v1/agents/ava/sessions/s1"],
      ["GET", "/v1/agents/ava/sessions/open1"],
      ["POST", "/v1/agents/ava/sessions/open1/turns", { speaker: "sam", text: "globex was here" }],
      ["POST", "/v1/agents/ava/sessions/open1/reply", {}],
      ["POST", "/v1/agents/ava/sessions/open1/close"],
      ["GET", `/v1/agents/ava/memories/${memoryId}/history`],
      ["GET", `/v1/agents/ava/memories/${memoryId}/timeline`],
      ["GET", "/v1/agents/ava"],
      ["POST", "/v1/forget", { agent: "ava", memoryIds: [memoryId] }],
      ["POST", "/v1/forget", { agent: "ava", sessionId: "s1" }],
      ["GET", `/v1/jobs/${ingest}`],
      ["GET", `/v1/jobs/${consolidation}`],
      ["POST", "/v1/agents/ava/retry", { sessionId: "open1" }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await s.call(s.globex, method, path, body);
      const text = await res.text();
      assert.equal(res.status, 404, `${method} ${path}: ${text}`);
      assert.doesNotMatch(text, /Biscuit|Leeds|Bristol|Oslo|sourdough/, `${method} ${path} leaked: ${text}`);
    }
    // Lists and searches in globex see nothing of acme's.
    const empty: [string, string, unknown?][] = [
      ["GET", "/v1/agents"],
      ["GET", "/v1/agents/ava/sessions"],
      ["GET", "/v1/agents/ava/memories?status=any"],
      ["GET", "/v1/agents/ava/failures"],
      ["GET", "/v1/agents/ava/graph"],
      ["GET", "/v1/agents/ava/operations"],
      ["GET", "/v1/jobs"],
      ["POST", "/v1/recall", { agent: "ava", about: "sam", query: "Where does Sam work, and what dog?" }],
      ["POST", "/v1/recall", { agent: "ava", about: "sam", query: "sourdough Oslo", units: "turns" }],
    ];
    for (const [method, path, body] of empty) {
      const res = await s.call(s.globex, method, path, body);
      assert.equal(res.status, 200, `${method} ${path}`);
      const json = (await res.json()) as Record<string, unknown[]>;
      const list =
        json.agents ??
        json.sessions ??
        json.memories ??
        json.failures ??
        json.operations ??
        json.jobs ??
        json.hits;
      assert.deepEqual(list, [], `${method} ${path}: ${JSON.stringify(json)}`);
      if (json.edges) assert.deepEqual(json.edges, [], `${method} ${path}: ${JSON.stringify(json)}`);
    }
    // Forgetting "about sam" in globex erases nothing of acme's: globex knows no sam (404), and
    // the refusal names none of acme's people.
    const forgot = await s.call(s.globex, "POST", "/v1/forget", { agent: "ava", about: "sam" });
    assert.equal(forgot.status, 404);
    assert.match(JSON.stringify(await forgot.json()), /knows no one yet/);

    // acme's data is as it was: globex's writes changed nothing.
    assert.deepEqual(await acmeState(), before);
    assert.equal((before.open as { turns: unknown[] }).turns.length, 1);
    // What globex was refused is there for acme: the new scope-wide routes do read data.
    assert.deepEqual((before.summary as { partners: string[] }).partners, ["sam"]);
    assert.ok((before.graph as { memories: unknown[] }).memories.length > 0);
    assert.ok((before.operations as { operations: unknown[] }).operations.length > 0);
  });

  it("takes the tenant from the key only: a tenant in the body is refused, one in a header ignored", async () => {
    // A body naming a tenant is not quietly served in the key's: the caller is told.
    const named = await s.call(s.globex, "POST", "/v1/sessions", {
      agent: "ava",
      partner: "sam",
      id: "open1",
      tenant: "acme",
    });
    assert.equal(named.status, 400);
    assert.equal(((await named.json()) as { error: { field: string } }).error.field, "tenant");
    const res = await s.call(s.globex, "POST", "/v1/sessions", { agent: "ava", partner: "sam", id: "open1" });
    assert.equal(res.status, 201, "the same ids live side by side in another tenant");
    assert.equal(((await res.json()) as { tenant: string }).tenant, "globex");
    const turn = await s.app.request("/v1/agents/ava/sessions/open1/turns", {
      method: "POST",
      headers: {
        authorization: `Bearer ${s.globex}`,
        "content-type": "application/json",
        "x-tenant": "acme",
      },
      body: JSON.stringify({ speaker: "sam", text: "only in globex" }),
    });
    assert.equal(turn.status, 201);
    assert.equal(((await turn.json()) as { tenant: string }).tenant, "globex");
    const acmeOpen = (await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions/open1")).json()) as {
      turns: { text: string }[];
    };
    assert.deepEqual(
      acmeOpen.turns.map((t) => t.text),
      ["I bake sourdough."],
    );
  });
});
