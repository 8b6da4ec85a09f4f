import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  cutShort,
  keyedCall,
  lapseLease,
  exchange as sixMessages,
} from "../../../test/fixtures/cut-short-write.js";
import { finished, type TestService, testService } from "../../../test/fixtures/test-service.js";
import { STILL_STORING_RETRY_SECONDS } from "../../engine/messages/keyed-turns.js";
import { messagesResultSchema } from "./message-routes.js";
import { errorSchema, turnSchema } from "./schemas.js";

type ErrorBody = { error: { code: string; field?: string; message: string } };

const exchange = [
  { role: "user", content: "I adopted a beagle called Biscuit and I work as a nurse in Leeds." },
  { role: "assistant", content: "Biscuit is a lovely name!" },
];

describe("service: one-call writes (POST /v1/agents/{agent}/messages, turns as an array)", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  /** A POST with the tenant's key, a JSON body and an optional Idempotency-Key. */
  const post = (key: string, path: string, body: unknown, idempotencyKey?: string) =>
    s.app.request(path, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: JSON.stringify(body),
    });
  const counts = async (key: string, agent: string) => {
    const { sessions } = (await (await s.call(key, "GET", `/v1/agents/${agent}/sessions`)).json()) as {
      sessions: { id: string }[];
    };
    const memories = (await (await s.call(key, "GET", `/v1/agents/${agent}/memories?status=any`)).json()) as {
      memories: unknown[];
    };
    return { sessions: sessions.length, memories: memories.memories.length };
  };

  it("stores an exchange as one session, consolidates it, and the partner alone recalls it", async () => {
    const res = await post(s.acme, "/v1/agents/ava/messages", {
      partner: "kim",
      at: "2024-03-02T18:00:00Z",
      messages: [
        ...exchange,
        { speaker: "kim", text: "Biscuit turns two in May.", at: "2024-03-02T18:02:00Z" },
      ],
    });
    assert.equal(res.status, 201, await res.clone().text());
    const body = messagesResultSchema.parse(await res.json());
    assert.equal(body.replayed, false);
    assert.deepEqual(body.session.partners, ["kim"]);
    assert.deepEqual(
      body.turns.map((t) => t.speaker),
      ["kim", "ava", "kim"],
    );
    assert.ok(body.job);
    assert.equal((await finished(s, s.acme, body.job.id)).state, "done");
    const recall = async (about: string) =>
      (
        (await (
          await s.call(s.acme, "POST", "/v1/recall", {
            agent: "ava",
            about,
            query: "What dog does Kim have?",
          })
        ).json()) as { hits: { text: string }[] }
      ).hits;
    assert.ok((await recall("kim")).some((h) => /beagle/i.test(h.text)));
    assert.deepEqual(await recall("sam"), []);
  });

  it("answers a retry with the same Idempotency-Key as the first call (200), storing nothing twice", async () => {
    const call = { partner: "kim", messages: exchange };
    const first = await post(s.acme, "/v1/agents/ivy/messages", call, "retry-me");
    assert.equal(first.status, 201);
    const firstBody = messagesResultSchema.parse(await first.json());
    await s.mem.idle();
    const again = await post(s.acme, "/v1/agents/ivy/messages", call, "retry-me");
    assert.equal(again.status, 200);
    const againBody = messagesResultSchema.parse(await again.json());
    assert.equal(againBody.replayed, true);
    assert.equal(againBody.session.id, firstBody.session.id);
    assert.deepEqual(
      againBody.turns.map((t) => t.id),
      firstBody.turns.map((t) => t.id),
    );
    assert.equal(againBody.job?.id, firstBody.job?.id);
    const before = await counts(s.acme, "ivy");
    assert.equal(before.sessions, 1);
    // The key with another body: a conflict, nothing stored.
    const other = await post(s.acme, "/v1/agents/ivy/messages", { ...call, partner: "sam" }, "retry-me");
    assert.equal(other.status, 409);
    assert.equal(errorSchema.parse(await other.json()).error.field, "idempotencyKey");
    assert.deepEqual(await counts(s.acme, "ivy"), before);
    // Another tenant's same key is its own.
    const globex = await post(s.globex, "/v1/agents/ivy/messages", call, "retry-me");
    assert.equal(globex.status, 201);
    assert.deepEqual(await counts(s.acme, "ivy"), before);
  });

  it("publishes the route with its Idempotency-Key header", async () => {
    const doc = (await (await s.call(null, "GET", "/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<string, { operationId: string; parameters: { in: string; name: string }[] }>
      >;
    };
    const op = doc.paths["/v1/agents/{agent}/messages"]!.post!;
    assert.equal(op.operationId, "addMessages");
    assert.ok(op.parameters.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key"));
  });

  it("refuses a bad message with 400 naming it, storing nothing", async () => {
    const good = { role: "user", content: "I moved to Oslo." };
    const cases: [unknown, string][] = [
      [{ partner: "kim", messages: [good, { role: "user", content: "hi", extra: 1 }] }, "messages.1.extra"],
      [{ partner: "kim", messages: [good, { role: "user", content: "" }] }, "messages.1.content"],
      [{ partner: "kim", messages: [good, { role: "tool", content: "x" }] }, "messages.1.role"],
      [{ partner: "kim", messages: [good, { speaker: "bob", text: "x" }] }, "messages.1.speaker"],
      [{ partner: "kim", messages: [good, { role: "user", content: "x", at: "soonish" }] }, "messages.1.at"],
      [{ partner: "kim", messages: [] }, "messages"],
      [{ partner: "kim", messages: [good], user_id: "kim" }, "user_id"],
      [{ messages: [good] }, "partner"],
    ];
    const before = await counts(s.acme, "zoe");
    for (const [body, field] of cases) {
      const res = await post(s.acme, "/v1/agents/zoe/messages", body, "bad-one");
      const json = (await res.json()) as ErrorBody;
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(json)}`);
      assert.equal(json.error.code, "INVALID_INPUT");
      assert.equal(json.error.field, field, `${JSON.stringify(body)}: ${json.error.message}`);
    }
    assert.deepEqual(await counts(s.acme, "zoe"), before);
    // The key of a refused call is still free: nothing was stored under it.
    assert.equal(
      (await post(s.acme, "/v1/agents/zoe/messages", { partner: "kim", messages: [good] }, "bad-one")).status,
      201,
    );
  });

  it("with infer: false keeps the messages as turns and infers nothing", async () => {
    const res = await post(s.acme, "/v1/agents/uma/messages", {
      partner: "kim",
      messages: exchange,
      infer: false,
    });
    assert.equal(res.status, 201);
    const body = messagesResultSchema.parse(await res.json());
    assert.equal(body.job, null);
    assert.equal(body.session.status, "consolidated");
    await s.mem.idle();
    assert.deepEqual(await counts(s.acme, "uma"), { sessions: 1, memories: 0 });
  });

  it("takes an array of turns on the turns route, atomically", async () => {
    assert.equal(
      (await s.call(s.acme, "POST", "/v1/sessions", { agent: "ada", partner: "kim", id: "t1" })).status,
      201,
    );
    const turns = "/v1/agents/ada/sessions/t1/turns";
    const bad = await post(s.acme, turns, [
      { speaker: "kim", text: "I keep bees." },
      { speaker: "bob", text: "Me too." },
    ]);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as ErrorBody).error.field, "1.speaker");
    const shape = await post(s.acme, turns, [
      { speaker: "kim", text: "I keep bees." },
      { text: "no speaker" },
    ]);
    assert.equal(((await shape.json()) as ErrorBody).error.field, "1.speaker");
    const read = async () =>
      ((await (await s.call(s.acme, "GET", "/v1/agents/ada/sessions/t1")).json()) as { turns: unknown[] })
        .turns;
    assert.deepEqual(await read(), []);
    const ok = await post(s.acme, turns, [
      { speaker: "kim", text: "I keep bees." },
      { speaker: "ada", text: "How many hives?" },
    ]);
    assert.equal(ok.status, 201);
    const { turns: stored } = (await ok.json()) as { turns: unknown[] };
    assert.deepEqual(
      stored.map((t) => turnSchema.parse(t).index),
      [0, 1],
    );
    const one = await post(s.acme, turns, { speaker: "kim", text: "Three hives." });
    assert.equal(turnSchema.parse(await one.json()).index, 2);
    assert.equal((await read()).length, 3);
  });
});

describe("service: a keyed call cut short part-way, sent again", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-messages-rest-"));
  const store = join(dir, "m.db");
  let s: TestService;
  before(async () => {
    // A server killed after three of the six messages (creem stores them one by one).
    await cutShort(store, "creem", "rest-cut", 3, "acme");
    s = await testService({ engine: { store, strategy: "creem" } });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const { agent: _, idempotencyKey: __, ...body } = keyedCall("rest-cut");
  const send = () =>
    s.app.request("/v1/agents/ava/messages", {
      method: "POST",
      headers: {
        authorization: `Bearer ${s.acme}`,
        "content-type": "application/json",
        "idempotency-key": "rest-cut",
      },
      body: JSON.stringify(body),
    });

  it("answers 409 with Retry-After while the first call's lease is live, then 200 with every message", async () => {
    const busy = await send();
    assert.equal(busy.status, 409);
    assert.equal(busy.headers.get("retry-after"), String(STILL_STORING_RETRY_SECONDS));
    const refusal = errorSchema.parse(await busy.json());
    assert.equal(refusal.error.field, "idempotencyKey");
    assert.equal(refusal.error.details?.retryable, true);
    const mem = s.mem.tenant("acme");
    const sessionId = (await mem.turns("ava"))[0]!.sessionId;
    await lapseLease(mem, sessionId);
    const res = await send();
    assert.equal(res.status, 200, await res.clone().text());
    const done = messagesResultSchema.parse(await res.json());
    assert.equal(done.replayed, true);
    assert.equal(done.session.id, sessionId);
    assert.deepEqual(
      done.turns.map((t) => t.text),
      sixMessages.map((m) => m.content),
    );
    assert.ok(done.job);
    assert.equal((await finished(s, s.acme, done.job.id)).state, "done");
  });
});
