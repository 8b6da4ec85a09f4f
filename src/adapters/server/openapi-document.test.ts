/**
 * The OpenAPI document as client generators read it: every operation has a unique camelCase
 * operationId that starts with a verb, a tag the document describes, the server's own URL, and
 * request examples the server itself accepts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testService } from "../../../test/fixtures/test-service.js";

interface Operation {
  operationId?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { example?: unknown; schema?: { examples?: unknown[] } }> };
}
interface Document {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** The verbs an operationId may start with: a generated method reads as what it does. */
const VERBS =
  /^(?:get|list|start|add|close|reply|update|restore|recall|forget|ingest|retry|call|export|import|discard|store)(?:[A-Z][a-zA-Z]*)?$/;

async function documentOf() {
  const s = await testService();
  const res = await s.call(null, "GET", "http://memlane.test:8787/openapi.json");
  assert.equal(res.status, 200);
  return { s, doc: (await res.json()) as Document };
}

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  );

describe("the OpenAPI document for client generators", () => {
  it("names every operation once, as a verb in camelCase, under a described tag", async () => {
    const { s, doc } = await documentOf();
    const ids = new Map<string, string>();
    const described = new Set((doc.tags ?? []).filter((t) => t.description).map((t) => t.name));
    for (const { path, method, op } of operations(doc)) {
      const where = `${method} ${path}`;
      assert.ok(op.operationId, `${where} has an operationId`);
      assert.match(op.operationId, VERBS, `${where}: "${op.operationId}" is a verb in camelCase`);
      assert.ok(!ids.has(op.operationId), `${op.operationId} names ${ids.get(op.operationId)} and ${where}`);
      ids.set(op.operationId, where);
      assert.ok(op.tags?.length, `${where} has a tag`);
      for (const tag of op.tags ?? []) assert.ok(described.has(tag), `tag "${tag}" of ${where} is described`);
    }
    assert.ok(ids.size >= 26, `${ids.size} operations`);
    await s.close();
  });

  it("gives the server's own origin as its server", async () => {
    const { s, doc } = await documentOf();
    assert.deepEqual(
      doc.servers?.map((x) => x.url),
      ["http://memlane.test:8787"],
    );
    await s.close();
  });

  it("publishes request examples that the server accepts", async () => {
    const { s: probe, doc } = await documentOf();
    await probe.close();
    const examples = operations(doc).flatMap(({ path, method, op }) =>
      Object.values(op.requestBody?.content ?? {})
        .flatMap((media) => [
          ...(media.example === undefined ? [] : [media.example]),
          ...(media.schema?.examples ?? []),
        ])
        .map((example) => ({ path, method, example })),
    );
    assert.ok(examples.length >= 9, `${examples.length} examples`);
    for (const { path, method, example } of examples) {
      if (path === "/mcp") continue;
      // Each example on a fresh service holding what its path names: the agent ava, her open
      // session s1 with Sam, and a memory about Sam (a superseded one for restore).
      const s = await testService();
      const started = await s.call(s.acme, "POST", "/v1/sessions", {
        agent: "ava",
        partner: "sam",
        id: "s1",
      });
      assert.equal(started.status, 201);
      await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/turns", {
        speaker: "sam",
        text: "I work at the library.",
      });
      const added = (await (
        await s.call(s.acme, "POST", "/v1/agents/ava/memories", {
          about: "sam",
          text: "Sam works at the library.",
        })
      ).json()) as { memory: { id: string } };
      const memoryId = added.memory.id;
      if (path.endsWith("/restore")) {
        const updated = await s.call(s.acme, "PATCH", `/v1/agents/ava/memories/${memoryId}`, {
          text: "Sam works at the museum.",
        });
        assert.equal(updated.status, 200);
      }
      const url = path
        .replace("{agent}", "ava")
        .replace("{sessionId}", "s1")
        .replace("{memoryId}", memoryId)
        .replace("{jobId}", "none");
      const res = await s.call(s.acme, method.toUpperCase(), url, example);
      assert.ok(res.status < 300, `${method} ${path} accepts its example: ${res.status} ${await res.text()}`);
      await s.close();
    }
  });
});
