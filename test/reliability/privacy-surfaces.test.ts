/**
 * The same privacy over every surface: REST, MCP and the AI SDK adapter answer Kim with nothing
 * Sam said, and a recall without a partner outside a session is refused with the same error.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { generateText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { memlaneTools, withMemlane } from "../../src/adapters/ai/ai-sdk.js";
import { createMcpServer } from "../../src/adapters/mcp/mcp-tools.js";
import { finished, type TestService, testService } from "../fixtures/test-service.js";

// Sam's facts, in words Kim's own question does not use.
const SECRET = /4321|harbour|(?:i|sam|he) (?:has|have) diabetes/i;

describe("privacy over REST, MCP and the AI SDK", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
    const json = async (method: string, path: string, body?: unknown) => {
      const r = await s.call(s.acme, method, path, body);
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${await r.clone().text()}`);
      return (await r.json()) as Record<string, unknown>;
    };
    await json("POST", "/v1/sessions", { agent: "ava", partner: "sam", id: "s1", at: "2024-03-01T10:00" });
    for (const text of [
      "My bank PIN is 4321 and I have diabetes, please keep it secret.",
      "I live at 12 Harbour Street in Bristol.",
    ])
      await json("POST", "/v1/agents/ava/sessions/s1/turns", { speaker: "sam", text });
    const closed = await json("POST", "/v1/agents/ava/sessions/s1/close");
    await finished(s, s.acme, String((closed.job as { id: string }).id));
  });
  after(() => s.close());

  it("REST: a recall for Kim finds nothing of Sam's; one without a partner is refused", async () => {
    const forKim = await s.call(s.acme, "POST", "/v1/recall", {
      agent: "ava",
      about: "kim",
      query: "Where does Sam live, and what is his PIN?",
    });
    assert.equal(forKim.status, 200);
    const body = (await forKim.json()) as { hits: { text: string }[]; scope: string };
    assert.equal(body.scope, "partner");
    assert.equal(body.hits.length, 0);
    const unnamed = await s.call(s.acme, "POST", "/v1/recall", { agent: "ava", query: "Sam's PIN" });
    assert.equal(unnamed.status, 400);
    assert.equal(((await unnamed.json()) as { error: { code: string } }).error.code, "INVALID_INPUT");
    const whole = await s.call(s.acme, "POST", "/v1/recall", {
      agent: "ava",
      scope: "agent",
      query: "PIN diabetes",
    });
    for (const h of ((await whole.json()) as { hits: { text: string }[] }).hits)
      assert.doesNotMatch(h.text, /4321|diabet/i);
    // A reply in Kim's session.
    await s.call(s.acme, "POST", "/v1/sessions", {
      agent: "ava",
      partner: "kim",
      id: "k1",
      at: "2024-03-05T10:00",
    });
    await s.call(s.acme, "POST", "/v1/agents/ava/sessions/k1/turns", {
      speaker: "kim",
      text: "Where does Sam live, and what is his PIN? Does anyone have diabetes?",
    });
    const reply = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/k1/reply");
    assert.equal(reply.status, 200);
    const answered = (await reply.json()) as { text: string; recall: { hits: { text: string }[] } };
    assert.doesNotMatch(answered.text, SECRET);
    assert.equal(answered.recall.hits.length, 0);
  });

  it("MCP: the recall tool answers Kim with nothing of Sam's", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(s.mem.tenant("acme")).connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const result = (await client.callTool({
      name: "recall",
      arguments: { agent: "ava", about: "kim", query: "Where does Sam live, and what is his PIN?" },
    })) as { isError?: boolean; content: { text: string }[] };
    assert.ok(!result.isError, result.content[0]?.text);
    assert.doesNotMatch(result.content[0]!.text, SECRET);
    const forSam = (await client.callTool({
      name: "recall",
      arguments: { agent: "ava", about: "sam", query: "What is my PIN?" },
    })) as { content: { text: string }[] };
    assert.match(forSam.content[0]!.text, /4321/, "Sam hears his own private memory");
    await client.close();
  });

  it("AI SDK: Kim's model call and Kim's recall tool see nothing of Sam's", async () => {
    const prompts: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        // What memlane put before the user's words (the question itself names the diabetes).
        prompts.push(JSON.stringify(options.prompt.filter((m) => m.role === "system")));
        return {
          content: [{ type: "text", text: "I can't say." }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const view = s.mem.tenant("acme");
    await generateText({
      model: withMemlane(model, { mem: view, agent: "ava", partner: "kim", record: false }),
      prompt: "Where does Sam live, and what is his PIN? Does anyone have diabetes?",
    });
    assert.doesNotMatch(prompts.join("\n"), SECRET);
    const tools = memlaneTools({ mem: view, agent: "ava", partner: "kim" });
    const hits = await tools.recall.execute!(
      { query: "Sam's address and PIN" },
      { toolCallId: "t1", messages: [] },
    );
    assert.doesNotMatch(JSON.stringify(hits), SECRET);
    const samTools = memlaneTools({ mem: view, agent: "ava", partner: "sam" });
    const own = await samTools.recall.execute!({ query: "my address" }, { toolCallId: "t2", messages: [] });
    assert.match(JSON.stringify(own), /harbour/i, "Sam's own memories reach Sam");
  });
});
