import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";
import { MAX_TURN_CHARS } from "../../engine/api.js";

type ErrorBody = { error: { code: string; field?: string; message: string } };

describe("service: validation, body limit and the OpenAPI document", () => {
  let s: TestService;
  before(async () => {
    s = await testService({ maxBodyBytes: 4096 });
    await s.call(s.acme, "POST", "/v1/sessions", { agent: "ava", partner: "sam", id: "s1" });
  });
  after(() => s.close());

  it("answers 400 naming the field, from the engine's own schemas and checks", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/v1/sessions", { agent: "ava" }, "partner"],
      ["POST", "/v1/sessions", { agent: " ava", partner: "sam" }, "agent"],
      ["POST", "/v1/sessions", { agent: "ava", partner: "ava" }, "partners"],
      ["POST", "/v1/sessions", { agent: "ava", partner: "sam", at: "not a time" }, "at"],
      ["POST", "/v1/agents/ava/sessions/s1/turns", { speaker: "sam", text: "   " }, "text"],
      ["POST", "/v1/agents/ava/sessions/s1/turns", { text: "hi" }, "speaker"],
      [
        "POST",
        "/v1/agents/ava/sessions/s1/turns",
        { speaker: "sam", text: "hi", perTurn: "later" },
        "perTurn",
      ],
      ["POST", "/v1/recall", { agent: "ava", about: "sam", query: "pets", k: 0 }, "k"],
      ["POST", "/v1/recall", { agent: "ava", about: "sam", query: "pets", units: "words" }, "units"],
      ["POST", "/v1/recall", { agent: "ava", about: "sam", query: "" }, "query"],
      ["POST", "/v1/forget", { agent: "ava" }, "about"],
      ["POST", "/v1/ingest", { agent: "ava", sessions: [] }, "sessions"],
      ["GET", "/v1/agents/ava/memories?status=gone", undefined, "status"],
      ["POST", "/v1/sessions", "{not json", "body"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await s.call(s.acme, method, path, body);
      const json = (await res.json()) as ErrorBody;
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(json)}`);
      assert.equal(json.error.code, "INVALID_INPUT");
      assert.equal(
        json.error.field,
        field,
        `${method} ${path} ${JSON.stringify(body)}: ${json.error.message}`,
      );
    }
  });

  it("refuses a body over the limit with 413 before it reaches the engine", async () => {
    const long = "x".repeat(5000);
    const res = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/turns", {
      speaker: "sam",
      text: long,
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as ErrorBody).error.code, "PAYLOAD_TOO_LARGE");
    // Also when the client does not say how long the body is (a stream, no Content-Length).
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ speaker: "sam", text: long })));
        controller.close();
      },
    });
    const chunked = await s.app.request("/v1/agents/ava/sessions/s1/turns", {
      method: "POST",
      headers: { authorization: `Bearer ${s.acme}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    assert.equal(chunked.status, 413);
    const turns = (await (await s.call(s.acme, "GET", "/v1/agents/ava/sessions/s1")).json()) as {
      turns: unknown[];
    };
    assert.deepEqual(turns.turns, []);
    assert.ok(MAX_TURN_CHARS > 4096, "the limit, not the turn's own cap, refused it");
  });

  it("publishes a valid OpenAPI 3.1 document with every route, built from the engine's schemas", async () => {
    const res = await s.call(null, "GET", "/openapi.json");
    assert.equal(res.status, 200);
    type Schema = {
      properties: Record<string, { maxLength?: number; maximum?: number }>;
      required?: string[];
    };
    type Operation = {
      security?: unknown[];
      requestBody?: { content: { "application/json": { schema: Schema } } };
      responses: object;
    };
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, Operation>> };
    assert.equal(doc.openapi, "3.1.0");
    const verdict = await new Validator().validate(doc as never);
    assert.deepEqual(verdict, { valid: true });

    // Every route the app answers is in the document, /health, /ready and /mcp included, and nothing else.
    const served = new Set(
      s.app.routes
        .filter(
          (r) =>
            r.method !== "ALL" &&
            (r.path.startsWith("/v1/") || r.path === "/health" || r.path === "/ready" || r.path === "/mcp"),
        )
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    assert.deepEqual([...documented].sort(), [...served].sort());
    assert.ok(served.size >= 19, `${served.size} routes`);
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (path === "/health" || path === "/ready") continue;
        assert.deepEqual(op.security, [{ apiKey: [] }], `${method} ${path} is key-protected`);
        if (path === "/mcp") continue;
        // Every status the server can answer is declared.
        for (const status of ["400", "401", "404", "405", "409", "413", "415", "500", "503", "504"])
          assert.ok(status in op.responses, `${method} ${path} documents ${status}`);
      }

    // The request bodies are the engine's input schemas: their fields, limits and descriptions.
    const body = (path: string) => doc.paths[path]!.post!.requestBody!.content["application/json"].schema;
    const session = body("/v1/sessions");
    assert.ok(["agent", "partner", "partners", "at", "perTurn"].every((k) => k in session.properties));
    // The id rules a schema can state are stated: a request generated from the pattern is accepted.
    const pattern = (session.properties.agent as { pattern?: string }).pattern;
    assert.ok(pattern, "ids carry their pattern");
    for (const [id, ok] of [
      ["ava", true],
      [" ava", false],
      ["ava ", false],
      ["a\u0000b", false],
      ["Jos\u00e9 M", true],
    ] as const)
      assert.equal(new RegExp(pattern).test(id), ok, JSON.stringify(id));
    assert.deepEqual(session.required, ["agent"]);
    // One turn, or an array of them: the object alternative carries the turn's limits.
    const turns = body("/v1/agents/{agent}/sessions/{sessionId}/turns") as Schema & { anyOf?: Schema[] };
    const turn = turns.anyOf?.find((alternative) => alternative.properties) ?? turns;
    assert.equal(turn.properties.text!.maxLength, MAX_TURN_CHARS);
    assert.equal(body("/v1/recall").properties.k!.maximum, 100);
  });
});
