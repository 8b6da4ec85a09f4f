import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";
import { createApiKey, revokeApiKey, tenantOfKey } from "./api-keys.js";

describe("service: API keys", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  it("answers 401 to a missing, malformed, unknown, wrong or revoked key, and writes nothing", async () => {
    const [, id] = s.acme.split("_");
    const revoked = (await createApiKey(s.keys, { tenant: "acme" })).key;
    await revokeApiKey(s.keys, revoked);
    const wrongSecret = `mlk_${id}_${"A".repeat(43)}`;
    const unknownId = s.acme.replace(id!, "0123456789abcdef");
    const cases: [string, Record<string, string>][] = [
      ["no header", {}],
      ["not bearer", { authorization: `Basic ${s.acme}` }],
      ["empty bearer", { authorization: "Bearer " }],
      ["malformed", { authorization: "Bearer hello" }],
      ["unknown id", { authorization: `Bearer ${unknownId}` }],
      ["wrong secret", { authorization: `Bearer ${wrongSecret}` }],
      ["revoked", { authorization: `Bearer ${revoked}` }],
    ];
    for (const [what, headers] of cases) {
      const res = await s.app.request("/v1/sessions", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ agent: "ava", partner: "sam", id: `by-${what.replace(/ /g, "-")}` }),
      });
      assert.equal(res.status, 401, what);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
      const body = (await res.json()) as { error: { code: string } };
      assert.equal(body.error.code, "UNAUTHORIZED", what);
      const read = await s.app.request("/v1/agents/ava/sessions", { headers });
      assert.equal(read.status, 401, `${what} (read)`);
    }
    assert.deepEqual(await s.mem.tenant("acme").agents(), [], "no 401 request wrote anything");
    const ok = await s.call(s.acme, "GET", "/v1/agents");
    assert.equal(ok.status, 200);
  });

  it("stores only a salted hash: the secret is nowhere in the table, and two keys never share a salt", async () => {
    const { key, record } = await createApiKey(s.keys, { tenant: "initech", name: "bot" });
    // Everything after `mlk_<16 hex>_` (the secret is base64url and may hold "_" itself).
    const secret = key.slice("mlk_".length + 16 + 1);
    assert.equal(secret.length, 43);
    const stored = await s.keys.list();
    const dump = JSON.stringify(stored);
    assert.ok(!dump.includes(secret));
    assert.equal(new Set(stored.map((k) => k.salt)).size, stored.length);
    assert.equal(record.hash.length, 64);
    assert.equal(await tenantOfKey(s.keys, key), "initech");
    await revokeApiKey(s.keys, record.id);
    assert.equal(await tenantOfKey(s.keys, key), null);
    await assert.rejects(revokeApiKey(s.keys, record.id), { code: "NOT_FOUND" });
    await assert.rejects(createApiKey(s.keys, { tenant: " " }), { code: "INVALID_INPUT" });
  });
});
