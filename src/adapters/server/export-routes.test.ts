import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";

/** The export without its header's `exportedAt`, the one thing two exports of the same rows differ in. */
const undated = (file: string) => file.replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');

describe("service: export route", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
    for (const text of ["Sam works as a nurse in Leeds.", "Sam has a beagle called Biscuit."]) {
      const res = await s.call(s.acme, "POST", "/v1/agents/ava/memories", { about: "sam", text });
      assert.equal(res.status, 201);
    }
  });
  after(() => s.close());

  it("streams the agent's memory as JSON lines, the library's export byte for byte", async () => {
    const res = await s.call(s.acme, "GET", "/v1/agents/ava/export");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/x-ndjson/);
    const body = await res.text();
    let expected = "";
    for await (const line of s.mem.tenant("acme").export({ agent: "ava" })) expected += line;
    assert.equal(undated(body), undated(expected));
    const lines = body
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      [lines[0].type, lines[0].tenant, lines[0].agent, lines.at(-1).counts.memories],
      ["header", "acme", "ava", 2],
    );
    const sam = await s.call(s.acme, "GET", "/v1/agents/ava/export?about=sam&embeddings=true");
    assert.equal(sam.status, 200);
    assert.match(await sam.text(), /"about":"sam","embeddings":true/);
  });

  it("answers 404 for an unknown agent or person, 400 for an unknown parameter, and keeps tenants apart", async () => {
    assert.equal((await s.call(s.acme, "GET", "/v1/agents/ava/export?about=nobody")).status, 404);
    assert.equal((await s.call(s.acme, "GET", "/v1/agents/zed/export")).status, 404);
    assert.equal((await s.call(s.acme, "GET", "/v1/agents/ava/export?user_id=sam")).status, 400);
    assert.equal((await s.call(s.globex, "GET", "/v1/agents/ava/export")).status, 404);
    assert.equal((await s.call(null, "GET", "/v1/agents/ava/export")).status, 401);
  });
});
