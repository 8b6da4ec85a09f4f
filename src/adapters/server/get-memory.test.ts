import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "@hono/zod-openapi";
import { testService } from "../../../test/fixtures/test-service.js";
import { errorSchema, memorySchema } from "./schemas.js";

describe("service: one memory by id", () => {
  it("answers a memory whatever its status, and 404 for an id the key's tenant does not hold", async () => {
    const s = await testService();
    const added = (await (
      await s.call(s.acme, "POST", "/v1/agents/ava/memories", {
        about: "sam",
        text: "Sam works at the library.",
      })
    ).json()) as { memory: { id: string } };
    const id = added.memory.id;

    const got = await s.call(s.acme, "GET", `/v1/agents/ava/memories/${id}`);
    assert.equal(got.status, 200);
    const { memory } = z.object({ memory: memorySchema }).parse(await got.json());
    assert.deepEqual([memory.id, memory.status, memory.text], [id, "active", "Sam works at the library."]);

    // Corrected, the old version is still there to read, as past.
    await s.call(s.acme, "PATCH", `/v1/agents/ava/memories/${id}`, { text: "Sam works at the museum." });
    const old = z
      .object({ memory: memorySchema })
      .parse(await (await s.call(s.acme, "GET", `/v1/agents/ava/memories/${id}`)).json());
    assert.equal(old.memory.status, "superseded");

    for (const [key, path] of [
      [s.acme, "/v1/agents/ava/memories/mem_nothing"],
      [s.acme, `/v1/agents/bob/memories/${id}`],
      [s.globex, `/v1/agents/ava/memories/${id}`],
    ] as const) {
      const res = await s.call(key, "GET", path);
      assert.equal(res.status, 404, path);
      assert.equal(errorSchema.parse(await res.json()).error.code, "NOT_FOUND");
    }
    await s.close();
  });
});
