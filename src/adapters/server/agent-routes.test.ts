import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { finished, type TestService, testService } from "../../../test/fixtures/test-service.js";

const demo = JSON.parse(
  readFileSync(new URL("../../../data/demo-conversation.json", import.meta.url), "utf8"),
);

type Memory = { id: string; status: string; about: string };
type Edge = { from: string; to: string; type: string };
type Operation = { id: string; type: string; status: string; at: string; recordedAt: string };

describe("service: an agent's summary, graph and operation log", () => {
  let s: TestService;
  const get = async <T>(path: string, key = s.acme) => {
    const res = await s.call(key, "GET", path);
    return { status: res.status, json: (await res.json()) as T };
  };

  before(async () => {
    s = await testService();
    // The demo file keeps its questions beside the transcript; an upload is the transcript alone.
    const transcript = { agent: demo.agent, sessions: demo.sessions };
    const up = (await (await s.call(s.acme, "POST", "/v1/ingest", transcript)).json()) as {
      job: { id: string };
    };
    assert.equal((await finished(s, s.acme, up.job.id)).state, "done");
  });
  after(() => s.close());

  it("summarizes an agent: partners and counts that agree with the other routes", async () => {
    const { status, json } = await get<{
      agent: string;
      partners: string[];
      strategies: string[];
      sessions: Record<string, number>;
      turns: number;
      memories: Record<string, number>;
      edges: number;
      operations: Record<string, number>;
      failures: number;
    }>("/v1/agents/ava");
    assert.equal(status, 200);
    assert.equal(json.agent, "ava");
    assert.deepEqual(json.partners, ["sam"]);
    assert.deepEqual(json.strategies, ["carecall"]);
    assert.deepEqual(json.sessions, { consolidated: demo.sessions.length });
    assert.equal(
      json.turns,
      demo.sessions.reduce((n: number, x: { turns: unknown[] }) => n + x.turns.length, 0),
    );
    const all = (await get<{ memories: Memory[] }>("/v1/agents/ava/memories?status=any")).json.memories;
    const byStatus: Record<string, number> = {};
    for (const m of all) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
    assert.deepEqual(json.memories, byStatus);
    const graph = (await get<{ edges: Edge[] }>("/v1/agents/ava/graph")).json;
    assert.equal(json.edges, graph.edges.length);
    assert.equal(json.failures, 0);
    assert.ok((json.operations["APPEND:done"] ?? 0) > 0, JSON.stringify(json.operations));
  });

  it("answers 404 naming the field for an agent with nothing stored", async () => {
    const { status, json } = await get<{ error: { code: string; field: string } }>("/v1/agents/nobody");
    assert.equal(status, 404);
    assert.deepEqual([json.error.code, json.error.field], ["NOT_FOUND", "agent"]);
  });

  it("gives the graph: every memory by default, and only the edges between the memories shown", async () => {
    const { json: graph } = await get<{ memories: Memory[]; edges: Edge[] }>("/v1/agents/ava/graph");
    const all = (await get<{ memories: Memory[] }>("/v1/agents/ava/memories?status=any")).json.memories;
    assert.deepEqual(graph.memories.map((m) => m.id).sort(), all.map((m) => m.id).sort());
    assert.ok(
      graph.memories.some((m) => m.status === "superseded"),
      "the demo supersedes something",
    );
    assert.ok(graph.edges.some((e) => e.type === "Supersedes"));

    const { json: active } = await get<{ memories: Memory[]; edges: Edge[] }>(
      "/v1/agents/ava/graph?status=active",
    );
    assert.ok(active.memories.length > 0 && active.memories.every((m) => m.status === "active"));
    const ids = new Set(active.memories.map((m) => m.id));
    assert.ok(active.edges.every((e) => ids.has(e.from) && ids.has(e.to)));
    assert.ok(active.edges.length < graph.edges.length, "supersessions lead to superseded memories");
    assert.equal((await get("/v1/agents/ava/graph?status=gone")).status, 400);
  });

  it("lists the operation log newest first, filtered by status, type and session, and cut to a limit", async () => {
    const { json } = await get<{ operations: Operation[] }>("/v1/agents/ava/operations");
    const log = json.operations;
    assert.ok(log.length > 2);
    for (let i = 1; i < log.length; i++)
      assert.ok(log[i - 1]!.at >= log[i]!.at, `${log[i - 1]!.at} before ${log[i]!.at}`);

    const two = (await get<{ operations: Operation[] }>("/v1/agents/ava/operations?limit=2")).json.operations;
    assert.deepEqual(
      two.map((o) => o.id),
      log.slice(0, 2).map((o) => o.id),
    );
    const appends = (await get<{ operations: Operation[] }>("/v1/agents/ava/operations?type=APPEND")).json
      .operations;
    assert.ok(appends.length > 0 && appends.every((o) => o.type === "APPEND"));
    assert.equal(appends.length, log.filter((o) => o.type === "APPEND").length);
    const first = (
      await get<{ operations: (Operation & { sessionId: string })[] }>(
        `/v1/agents/ava/operations?sessionId=${demo.sessions[0].id}`,
      )
    ).json.operations;
    assert.ok(first.length > 0 && first.every((o) => o.sessionId === demo.sessions[0].id));
    assert.deepEqual(
      (await get<{ operations: Operation[] }>("/v1/agents/ava/operations?status=failed")).json,
      { operations: [], nextCursor: null },
    );
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=many", "limit"],
      ["type=append", "type"],
      ["status=broken", "status"],
    ]) {
      const bad = await get<{ error: { field: string } }>(`/v1/agents/ava/operations?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.json.error.field, field, query);
    }
  });

  it("needs a key for all three", async () => {
    for (const path of ["/v1/agents/ava", "/v1/agents/ava/graph", "/v1/agents/ava/operations"])
      assert.equal((await s.call(null, "GET", path)).status, 401, path);
  });
});
