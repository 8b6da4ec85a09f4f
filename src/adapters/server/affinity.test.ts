/**
 * Scope affinity over HTTP: every answer about one agent names its scope's routing key; a replica
 * with a share names itself and the scope's home, answers scopes away from home all the same,
 * and reports its share and its indexes in /health.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { finished, type TestService, testService } from "../../../test/fixtures/test-service.js";
import { homeOf, scopeRoute } from "../../core/replica-share.js";
import { agentOfPath } from "./affinity.js";

/** The first agent name of the form `<prefix><n>` whose acme scope is home to replica `index` of 2. */
function agentAt(index: number, prefix: string): string {
  for (let n = 0; ; n++)
    if (homeOf(scopeRoute({ tenant: "acme", agent: `${prefix}${n}` }), 2) === index) return `${prefix}${n}`;
}

describe("scope affinity over HTTP", () => {
  let lone: TestService;
  let replica: TestService;
  before(async () => {
    lone = await testService();
    replica = await testService({ engine: { replica: { index: 1, of: 2 } } });
  });
  after(async () => {
    await lone.close();
    await replica.close();
  });

  it("names the scope of a path's agent and of a body's agent, with the tenant from the key", async () => {
    const made = await lone.call(lone.acme, "POST", "/v1/sessions", {
      agent: "a/b",
      partner: "sam",
      id: "s1",
    });
    assert.equal(made.status, 201);
    assert.equal(made.headers.get("memlane-scope"), "acme/a%2Fb");
    const listed = await lone.call(lone.acme, "GET", "/v1/agents/a%2Fb/sessions");
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get("memlane-scope"), "acme/a%2Fb");
    const recall = await lone.call(lone.globex, "POST", "/v1/recall", { agent: "ava", query: "pets?" });
    assert.equal(recall.headers.get("memlane-scope"), "globex/ava");
    // An error about one agent names it too; a route about none names no scope.
    const missing = await lone.call(lone.acme, "GET", "/v1/agents/ava/sessions/nope");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("memlane-scope"), "acme/ava");
    const jobs = await lone.call(lone.acme, "GET", "/v1/jobs");
    assert.equal(jobs.headers.get("memlane-scope"), null);
    // Without a share there is no replica to name.
    assert.equal(listed.headers.get("memlane-replica"), null);
    assert.equal(listed.headers.get("memlane-home"), null);
  });

  it("never takes the scope from the request's own header", async () => {
    const res = await lone.app.request("/v1/agents/ava/sessions", {
      headers: { authorization: `Bearer ${lone.acme}`, "memlane-scope": "globex/zed" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("memlane-scope"), "acme/ava");
  });

  it("on a replica with a share, says who answered and where home is, and answers away from home alike", async () => {
    const mine = agentAt(1, "ava");
    const theirs = agentAt(2, "bob");
    for (const [agent, home] of [
      [mine, "1/2"],
      [theirs, "2/2"],
    ] as const) {
      const made = await replica.call(replica.acme, "POST", "/v1/sessions", {
        agent,
        partner: "sam",
        id: "s1",
      });
      assert.equal(made.status, 201);
      await replica.call(replica.acme, "POST", `/v1/agents/${agent}/sessions/s1/turns`, {
        speaker: "sam",
        text: "I adopted a beagle called Biscuit.",
      });
      const closed = await replica.call(replica.acme, "POST", `/v1/agents/${agent}/sessions/s1/close`);
      const { job } = (await closed.json()) as { job: { id: string } };
      assert.equal((await finished(replica, replica.acme, job.id)).state, "done");
      const recall = await replica.call(replica.acme, "POST", "/v1/recall", {
        agent,
        about: "sam",
        query: "what dog does Sam have?",
      });
      assert.equal(recall.status, 200);
      assert.equal(recall.headers.get("memlane-replica"), "1/2");
      assert.equal(recall.headers.get("memlane-home"), home, agent);
      const { hits } = (await recall.json()) as { hits: { text: string }[] };
      assert.ok(
        hits.some((h) => /beagle/i.test(h.text)),
        `${agent}: ${JSON.stringify(hits)}`,
      );
    }
  });

  it("reports the share and the indexes held in /health", async () => {
    const health = await replica.call(null, "GET", "/health");
    assert.equal(health.status, 200);
    assert.equal(health.headers.get("memlane-replica"), "1/2");
    const body = (await health.json()) as {
      ok: boolean;
      replica: { index: number; of: number } | null;
      indexes: { limit: number; used: number; count: number } | null;
    };
    assert.deepEqual(body.replica, { index: 1, of: 2 });
    assert.equal(body.indexes?.limit, 1024 ** 3);
    const alone = (await (await lone.call(null, "GET", "/health")).json()) as { replica: unknown };
    assert.equal(alone.replica, null);
  });

  it("reads the agent of a path, decoded, and none from other paths", () => {
    assert.equal(agentOfPath("/v1/agents/ava/memories"), "ava");
    assert.equal(agentOfPath("/v1/agents/a%2Fb"), "a/b");
    assert.equal(agentOfPath("/v1/agents/%E0%A4%A"), null, "a malformed escape names no agent");
    assert.equal(agentOfPath("/v1/recall"), null);
  });
});
