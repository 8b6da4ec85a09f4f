/**
 * Every input of the service refuses a field it does not know, naming it: each operation of the
 * published OpenAPI document, sent a request the document admits plus one field more (in its
 * body, and in its query string), and each MCP tool, called with one argument more. A field that
 * was ignored would leave the caller believing a call was scoped (`user_id`, `filters`) when it
 * was not.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer, MCP_TOOLS } from "../../src/adapters/mcp/mcp-tools.js";
import { type Schema, sample } from "../fixtures/openapi-sample.js";
import { type TestService, testService } from "../fixtures/test-service.js";

type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { required?: boolean; content: { "application/json": { schema: Schema } } };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type ErrorBody = { error: { code: string; field?: string; message: string } };

/** Not walked: probes take no input and must answer whatever a load balancer appends; /mcp is JSON-RPC (its tools are walked below). */
const UNWALKED = new Set(["/health", "/ready", "/mcp"]);

const EXTRA = "user_id";

describe("service: unknown fields are refused everywhere, by name", () => {
  let s: TestService;
  let doc: Document;
  before(async () => {
    s = await testService();
    doc = (await (await s.call(null, "GET", "/openapi.json")).json()) as Document;
  });
  after(() => s.close());

  /** The operation's path with sample ids, and its body as the document describes it. */
  const requestOf = (path: string, op: Operation) => {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "agent" ? "ava" : `gen-${name}`));
    const schema = op.requestBody?.content["application/json"]?.schema;
    return { url, schema, body: schema ? sample(schema, doc) : undefined };
  };

  const refusedNaming = async (res: Response, field: string, where: string) => {
    const text = await res.text();
    assert.equal(res.status, 400, `${where}: ${text}`);
    const { error } = JSON.parse(text) as ErrorBody;
    assert.equal(error.code, "INVALID_INPUT", where);
    assert.equal(error.field, field, `${where}: ${text}`);
    assert.match(error.message, new RegExp(`unknown field \`${field.split(".").pop()}\``), where);
  };

  it("publishes every request body with additionalProperties: false", () => {
    const bodies: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content["application/json"]?.schema;
        if (!schema || UNWALKED.has(path)) continue;
        // The ingest body is a transcript or an array of them: each alternative is closed.
        const objects =
          schema.anyOf && !schema.properties ? schema.anyOf.map((alt) => alt.items ?? alt) : [schema];
        for (const object of objects)
          assert.equal(object.additionalProperties, false, `${method} ${path}: ${JSON.stringify(object)}`);
        bodies.push(`${method} ${path}`);
      }
    assert.ok(bodies.length >= 7, bodies.join(", "));
  });

  it("refuses one body field more on every operation with a body, naming it", async () => {
    let walked = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (UNWALKED.has(path) || !op.requestBody) continue;
        const { url, body } = requestOf(path, op);
        const where = `${method} ${path}`;
        // Without the extra field the same body is accepted (whatever the route then answers).
        const plain = await s.call(s.acme, method.toUpperCase(), url, body);
        assert.notEqual(plain.status, 400, `${where}: ${await plain.text()}`);
        // The ingest body may be an array of transcripts: the field goes into the first.
        const withExtra = Array.isArray(body)
          ? [{ ...(body[0] as object), [EXTRA]: "sam" }, ...body.slice(1)]
          : { ...(body as object), [EXTRA]: "sam" };
        const res = await s.call(s.acme, method.toUpperCase(), url, withExtra);
        await refusedNaming(res, EXTRA, where);
        walked++;
      }
    assert.ok(walked >= 7, `${walked} operations with a body`);
  });

  it("refuses one query parameter more on every operation, naming it", async () => {
    let walked = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (UNWALKED.has(path)) continue;
        const { url, body } = requestOf(path, op);
        const where = `${method} ${path}?${EXTRA}`;
        const res = await s.call(s.acme, method.toUpperCase(), `${url}?${EXTRA}=sam`, body);
        await refusedNaming(res, EXTRA, where);
        walked++;
      }
    assert.equal(
      walked,
      Object.entries(doc.paths)
        .filter(([path]) => !UNWALKED.has(path))
        .reduce((n, [, ops]) => n + Object.keys(ops).length, 0),
    );
    assert.ok(walked >= 19, `${walked} operations`);
  });

  it("keeps the documented query parameters, and suggests the one a misspelling meant", async () => {
    const listed = await s.call(s.acme, "GET", "/v1/agents/ava/memories?status=any&about=sam");
    assert.equal(listed.status, 200, await listed.clone().text());
    const typo = await s.call(s.acme, "GET", "/v1/agents/ava/operations?limt=5");
    const { error } = (await typo.json()) as ErrorBody;
    assert.equal(error.field, "limt");
    assert.match(error.message, /did you mean `limit`\?/);
  });

  it("stores nothing from a body with an unknown field, and keeps meta open", async () => {
    const refused = await s.call(s.acme, "POST", "/v1/sessions", {
      agent: "kit",
      partner: "lou",
      id: "strict-1",
      tenant: "globex",
    });
    await refusedNaming(refused, "tenant", "POST /v1/sessions");
    assert.deepEqual(await s.mem.tenant("acme").sessions("kit"), [], "the session was not stored");
    const typo = (await (
      await s.call(s.acme, "POST", "/v1/recall", { agent: "kit", qeury: "dog" })
    ).json()) as ErrorBody;
    assert.equal(typo.error.field, "qeury");
    assert.match(typo.error.message, /unknown field `qeury`; did you mean `query`\?/);
    // meta is the caller's own data: any field goes.
    const kept = await s.call(s.acme, "POST", "/v1/sessions", {
      agent: "kit",
      partner: "lou",
      id: "strict-2",
      meta: { user_id: "lou", anything: { at: "all" } },
    });
    assert.equal(kept.status, 201, await kept.clone().text());
    const turn = await s.call(s.acme, "POST", "/v1/agents/kit/sessions/strict-2/turns", {
      speaker: "lou",
      text: "I keep bees.",
      speakr: "lou",
    });
    await refusedNaming(turn, "speakr", "POST turns");
    assert.deepEqual(await s.mem.tenant("acme").turns("kit"), [], "the turn was not stored");
    const said = await s.call(s.acme, "POST", "/v1/agents/kit/sessions/strict-2/turns", {
      speaker: "lou",
      text: "I keep bees.",
    });
    assert.equal(said.status, 201);
    // close reads no body, and clients send it with a JSON content type and nothing in it.
    const close = await s.app.request("/v1/agents/kit/sessions/strict-2/close", {
      method: "POST",
      headers: { authorization: `Bearer ${s.acme}`, "content-type": "application/json" },
    });
    assert.equal(close.status, 202, await close.clone().text());
  });

  it("refuses an unknown field of an uploaded transcript at every level", async () => {
    const jobCount = async () =>
      ((await (await s.call(s.acme, "GET", "/v1/jobs")).json()) as { jobs: unknown[] }).jobs.length;
    const jobsBefore = await jobCount();
    const transcript = {
      agent: "kit",
      sessions: [
        { id: "up-1", at: "2024-03-02T18:00", partner: "lou", turns: [{ speaker: "lou", text: "Hi." }] },
      ],
    };
    for (const [body, field] of [
      [{ ...transcript, questions: [] }, "questions"],
      [
        { ...transcript, sessions: [{ ...transcript.sessions[0], partner_id: "lou" }] },
        "sessions.0.partner_id",
      ],
      [
        {
          ...transcript,
          sessions: [{ ...transcript.sessions[0], turns: [{ speaker: "lou", text: "Hi.", role: "user" }] }],
        },
        "sessions.0.turns.0.role",
      ],
    ] as const)
      await refusedNaming(
        await s.call(s.acme, "POST", "/v1/ingest", body),
        field,
        `POST /v1/ingest ${field}`,
      );
    assert.equal(await jobCount(), jobsBefore, "no upload was queued");
  });

  it("refuses one argument more on every MCP tool, as INVALID_INPUT naming it", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(s.mem.tenant("acme"));
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
    for (const tool of tools) {
      const schema = tool.inputSchema as Schema;
      assert.equal(schema.additionalProperties, false, `${tool.name} publishes a closed schema`);
      const args = { ...(sample(schema, {}) as object), [EXTRA]: "sam" };
      const r = (await client.callTool({ name: tool.name, arguments: args })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      assert.equal(r.isError, true, tool.name);
      assert.match(
        r.content[0]!.text,
        new RegExp(`^INVALID_INPUT \\(field: ${EXTRA}\\): .*unknown field \`${EXTRA}\``),
        tool.name,
      );
    }
    const typo = (await client.callTool({ name: "recall", arguments: { agent: "ava", qeury: "dog" } })) as {
      content: { text: string }[];
    };
    assert.match(typo.content[0]!.text, /^INVALID_INPUT \(field: qeury\): .*did you mean `query`\?/);
    // An unknown field inside a turn is named by its path.
    const nested = (await client.callTool({
      name: "remember",
      arguments: { agent: "mo", partner: "sam", turns: [{ speaker: "sam", text: "Hi.", when: "now" }] },
    })) as { content: { text: string }[] };
    assert.match(nested.content[0]!.text, /^INVALID_INPUT \(field: turns\.0\.when\)/);
    assert.deepEqual(await s.mem.tenant("acme").sessions("mo"), [], "nothing was remembered");
    await client.close();
  });
});
