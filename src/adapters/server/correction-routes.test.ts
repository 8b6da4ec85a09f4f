import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";

interface MemoryRow {
  id: string;
  text: string;
  status: string;
  about: string;
  attributes: Record<string, unknown>;
}

describe("service: correction routes", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  const json = async <T>(res: Response) => (await res.json()) as T;

  it("adds a fact (201), corrects it (PATCH, 200), restores the first version, with history", async () => {
    const added = await s.call(s.acme, "POST", "/v1/agents/ava/memories", {
      about: "sam",
      text: "Sam works as a nurse in Leeds.",
      at: "2024-03-02T18:00",
      meta: { source: "crm" },
    });
    assert.equal(added.status, 201);
    const { memory: first, operation } = await json<{
      memory: MemoryRow;
      operation: { type: string; model: string };
    }>(added);
    assert.deepEqual([operation.type, operation.model], ["ADD", "caller"]);
    assert.deepEqual(first.attributes.audience, ["sam"]);

    const patched = await s.call(s.acme, "PATCH", `/v1/agents/ava/memories/${first.id}`, {
      text: "Sam works as a midwife in Leeds.",
    });
    assert.equal(patched.status, 200);
    const updated = await json<{ memory: MemoryRow; superseded: MemoryRow; operation: { type: string } }>(
      patched,
    );
    assert.equal(updated.operation.type, "UPDATE");
    assert.equal(updated.superseded.status, "superseded");
    assert.equal(updated.memory.about, "sam");

    // A past version cannot be corrected: 409, naming the current one.
    const stale = await s.call(s.acme, "PATCH", `/v1/agents/ava/memories/${first.id}`, {
      text: "Sam is a vet.",
    });
    assert.equal(stale.status, 409);
    const body = await json<{ error: { code: string; details: { current: string[] } } }>(stale);
    assert.deepEqual(body.error.details.current, [updated.memory.id]);

    const restored = await s.call(s.acme, "POST", `/v1/agents/ava/memories/${first.id}/restore`);
    assert.equal(restored.status, 200);
    const back = await json<{ memory: MemoryRow; retired: MemoryRow[] }>(restored);
    assert.equal(back.memory.status, "active");
    assert.deepEqual(
      back.retired.map((m) => m.id),
      [updated.memory.id],
    );
    assert.equal((await s.call(s.acme, "POST", `/v1/agents/ava/memories/${first.id}/restore`)).status, 409);

    const history = await json<{ corrections: { type: string; text: string }[] }>(
      await s.call(s.acme, "GET", `/v1/agents/ava/memories/${first.id}/history`),
    );
    assert.deepEqual(
      history.corrections.map((c) => c.type),
      ["ADD", "UPDATE", "RESTORE"],
    );
    assert.match(history.corrections[2]!.text, /^restored on /);
  });

  it("refuses bad bodies with 400 and other tenants' ids with 404, changing nothing", async () => {
    const { memory } = await json<{ memory: MemoryRow }>(
      await s.call(s.acme, "POST", "/v1/agents/kai/memories", { about: "kai", text: "Kai likes tea." }),
    );
    const count = async () =>
      (await json<{ memories: unknown[] }>(await s.call(s.acme, "GET", "/v1/agents/kai/memories?status=any")))
        .memories.length;
    const before = await count();
    const unknown = await s.call(s.acme, "POST", "/v1/agents/kai/memories", {
      about: "kai",
      text: "Kai likes coffee.",
      user_id: "kai",
    });
    assert.equal(unknown.status, 400);
    assert.equal((await json<{ error: { field: string } }>(unknown)).error.field, "user_id");
    assert.equal((await s.call(s.acme, "POST", "/v1/agents/kai/memories", { about: "kai" })).status, 400);
    assert.equal(
      (await s.call(s.acme, "PATCH", `/v1/agents/kai/memories/${memory.id}`, { text: "" })).status,
      400,
    );
    assert.equal(
      (await s.call(s.acme, "PATCH", `/v1/agents/kai/memories/${memory.id}`, { text: "x", why: "y" })).status,
      400,
    );
    assert.equal(
      (await s.call(s.globex, "PATCH", `/v1/agents/kai/memories/${memory.id}`, { text: "Kai likes coffee." }))
        .status,
      404,
    );
    assert.equal(
      (await s.call(s.globex, "POST", `/v1/agents/kai/memories/${memory.id}/restore`)).status,
      404,
    );
    assert.equal(
      (await s.call(null, "POST", "/v1/agents/kai/memories", { about: "kai", text: "t" })).status,
      401,
    );
    assert.equal(await count(), before);
    assert.equal((await s.mem.tenant("acme").getMemory("kai", memory.id))?.text, "Kai likes tea.");
  });

  it("publishes the three routes in the OpenAPI document", async () => {
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(
      await s.call(null, "GET", "/openapi.json"),
    );
    assert.ok(doc.paths["/v1/agents/{agent}/memories/{memoryId}"]?.patch);
    assert.ok(doc.paths["/v1/agents/{agent}/memories/{memoryId}/restore"]?.post);
    assert.ok(doc.paths["/v1/agents/{agent}/memories"]?.post);
  });
});
