/**
 * Requests generated from the published OpenAPI document alone — the smallest
 * body each schema allows (its required fields, values that fit their type, pattern, enum, bounds
 * and any anyOf), or its example where it gives one — never get a 400: every rule the server
 * enforces on a body is in the document.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Schema, sample } from "../fixtures/openapi-sample.js";
import { type TestService, testService } from "../fixtures/test-service.js";

describe("requests generated from the OpenAPI document", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  it("get no 400 for a rule the document does not state", async () => {
    const doc = (await (await s.call(null, "GET", "/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: { "application/json": { schema: Schema } } } }>
      >;
      components?: { schemas?: Record<string, Schema> };
    };
    const refused: string[] = [];
    let sent = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content["application/json"]?.schema;
        if (!schema || path === "/mcp") continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === "agent" ? "ava" : `gen-${name}`,
        );
        const body = sample(schema, doc);
        const res = await s.call(s.acme, method.toUpperCase(), url, body);
        sent++;
        if (res.status === 400)
          refused.push(`${method} ${path} ${JSON.stringify(body)}: ${await res.text()}`);
      }
    assert.ok(sent >= 6, `${sent} requests`);
    assert.deepEqual(refused, []);
  });
});
