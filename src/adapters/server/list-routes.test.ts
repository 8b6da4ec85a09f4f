import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "@hono/zod-openapi";
import { testService } from "../../../test/fixtures/test-service.js";
import {
  edgePageSchema,
  errorSchema,
  memoryPageSchema,
  operationPageSchema,
  sessionPageSchema,
  turnPageSchema,
  turnSchema,
} from "./schemas.js";

type Service = Awaited<ReturnType<typeof testService>>;

/** Every page of a list route, each answer checked against its published schema. */
async function everyPage<T extends z.ZodType<{ nextCursor: string | null }>>(
  s: Service,
  path: string,
  schema: T,
): Promise<{ pages: z.output<T>[] }> {
  const pages: z.output<T>[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const url: string = cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path;
    const res = await s.call(s.acme, "GET", url);
    assert.equal(res.status, 200, `${url}: ${res.status}`);
    const page = schema.parse(await res.json());
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return { pages };
}

async function withFacts(s: Service): Promise<void> {
  const facts = [
    { text: "Sam works at the library.", at: "2024-01-05T10:00:00Z", meta: { topic: "work" } },
    { text: "Sam has a beagle called Rex.", at: "2024-02-05T10:00:00Z", meta: { topic: "home" } },
    { text: "Sam plays chess on Sundays.", at: "2024-03-05T10:00:00Z", meta: { topic: "hobby" } },
    { text: "Sam leads the archive team.", at: "2024-04-05T10:00:00Z", meta: { topic: "work", level: 2 } },
    { text: "Sam's sister is called Ana.", at: "2024-05-05T10:00:00Z" },
  ];
  for (const f of facts) {
    const res = await s.call(s.acme, "POST", "/v1/agents/ava/memories", { about: "sam", ...f });
    assert.equal(res.status, 201);
  }
}

const texts = (pages: { memories: { text: string }[] }[]) =>
  pages.flatMap((p) => p.memories.map((m) => m.text));

describe("service: pages and filters of the lists", () => {
  it("pages memories by cursor, oldest first, and filters them by meta, kind and dates", async () => {
    const s = await testService();
    await withFacts(s);
    const all = await everyPage(s, "/v1/agents/ava/memories?limit=2", memoryPageSchema);
    assert.deepEqual(
      all.pages.map((p) => p.memories.length),
      [2, 2, 1],
    );
    assert.equal(new Set(texts(all.pages)).size, 5);
    assert.equal(texts(all.pages)[0], "Sam works at the library.");

    const work = await everyPage(s, "/v1/agents/ava/memories?meta.topic=work", memoryPageSchema);
    assert.deepEqual(texts(work.pages), ["Sam works at the library.", "Sam leads the archive team."]);
    const either = await everyPage(s, "/v1/agents/ava/memories?meta.topic=home,hobby", memoryPageSchema);
    assert.deepEqual(texts(either.pages), ["Sam has a beagle called Rex.", "Sam plays chess on Sundays."]);
    // A number in meta matches its text.
    const level = await everyPage(s, "/v1/agents/ava/memories?meta.level=2", memoryPageSchema);
    assert.deepEqual(texts(level.pages), ["Sam leads the archive team."]);
    const spring = await everyPage(
      s,
      "/v1/agents/ava/memories?observedAfter=2024-02-01&observedBefore=2024-04-01",
      memoryPageSchema,
    );
    assert.deepEqual(texts(spring.pages), ["Sam has a beagle called Rex.", "Sam plays chess on Sundays."]);
    const none = await everyPage(s, "/v1/agents/ava/memories?kind=summary,insight", memoryPageSchema);
    assert.deepEqual(texts(none.pages), []);
    await s.close();
  });

  it("refuses unknown parameters, bad cursors, limits out of range and unreadable dates, naming the field", async () => {
    const s = await testService();
    await withFacts(s);
    const first = memoryPageSchema.parse(
      await (await s.call(s.acme, "GET", "/v1/agents/ava/memories?limit=1")).json(),
    );
    assert.ok(first.nextCursor);
    for (const [path, field] of [
      ["/v1/agents/ava/memories?topic=work", "topic"],
      ["/v1/agents/ava/memories?sesionId=s1", "sesionId"],
      ["/v1/agents/ava/memories?meta.to%20pic=x", "meta.to pic"],
      ["/v1/agents/ava/memories?cursor=nonsense!", "cursor"],
      ["/v1/agents/ava/memories?cursor=WyJ4Il0", "cursor"],
      [`/v1/agents/ava/sessions?cursor=${first.nextCursor}`, "cursor"],
      ["/v1/agents/ava/memories?limit=0", "limit"],
      ["/v1/agents/ava/memories?limit=1001", "limit"],
      ["/v1/agents/ava/memories?observedAfter=someday", "observedAfter"],
      ["/v1/agents/ava/memories?status=lost", "status"],
      ["/v1/agents/ava/turns?after=never", "after"],
      ["/v1/agents/ava/operations?order=sideways", "order"],
      ["/v1/agents/ava/edges?type=Likes", "type"],
    ] as const) {
      const res = await s.call(s.acme, "GET", path);
      assert.equal(res.status, 400, path);
      const { error } = errorSchema.parse(await res.json());
      assert.equal(error.code, "INVALID_INPUT", path);
      assert.equal(error.field, field, `${path}: ${error.message}`);
    }
    await s.close();
  });

  it("lists turns and gets one by id, 404 for another agent's or tenant's", async () => {
    const s = await testService();
    await s.call(s.acme, "POST", "/v1/sessions", {
      agent: "ava",
      partner: "sam",
      id: "s1",
      meta: { channel: "sms" },
    });
    for (const text of ["I work at the library.", "I have a beagle.", "I play chess."])
      await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/turns", { speaker: "sam", text });
    const turns = await everyPage(s, "/v1/agents/ava/turns?limit=2&speaker=sam", turnPageSchema);
    const list = turns.pages.flatMap((p) => p.turns);
    assert.deepEqual(
      list.map((t) => t.text),
      ["I work at the library.", "I have a beagle.", "I play chess."],
    );
    const got = await s.call(s.acme, "GET", `/v1/agents/ava/turns/${list[1]!.id}`);
    assert.equal(got.status, 200);
    assert.equal(z.object({ turn: turnSchema }).parse(await got.json()).turn.text, "I have a beagle.");
    for (const [key, path] of [
      [s.acme, "/v1/agents/ava/turns/nothing"],
      [s.acme, `/v1/agents/bob/turns/${list[1]!.id}`],
      [s.globex, `/v1/agents/ava/turns/${list[1]!.id}`],
    ] as const) {
      const res = await s.call(key, "GET", path);
      assert.equal(res.status, 404, path);
      assert.equal(errorSchema.parse(await res.json()).error.code, "NOT_FOUND");
    }
    const sessions = await everyPage(
      s,
      "/v1/agents/ava/sessions?meta.channel=sms&status=open",
      sessionPageSchema,
    );
    assert.deepEqual(
      sessions.pages.flatMap((p) => p.sessions.map((x) => x.id)),
      ["s1"],
    );
    const other = await everyPage(s, "/v1/agents/ava/sessions?meta.channel=web", sessionPageSchema);
    assert.deepEqual(
      other.pages.flatMap((p) => p.sessions),
      [],
    );
    await s.close();
  });

  it("pages the operation log newest first and the edges, following cursors", async () => {
    const s = await testService();
    await withFacts(s);
    const added = memoryPageSchema.parse(
      await (await s.call(s.acme, "GET", "/v1/agents/ava/memories")).json(),
    );
    const id = added.memories[0]!.id;
    await s.call(s.acme, "PATCH", `/v1/agents/ava/memories/${id}`, { text: "Sam works at the museum." });
    const ops = await everyPage(s, "/v1/agents/ava/operations?limit=2", operationPageSchema);
    const log = ops.pages.flatMap((p) => p.operations);
    assert.equal(log.length, 6);
    assert.equal(log[0]!.type, "UPDATE");
    const oldest = await everyPage(s, "/v1/agents/ava/operations?limit=4&order=oldest", operationPageSchema);
    assert.deepEqual(
      oldest.pages.flatMap((p) => p.operations.map((o) => o.id)),
      log.map((o) => o.id).reverse(),
    );
    const touching = await everyPage(s, `/v1/agents/ava/operations?memoryId=${id}`, operationPageSchema);
    assert.deepEqual(
      touching.pages.flatMap((p) => p.operations.map((o) => o.type)),
      ["UPDATE", "ADD"],
    );
    const edges = await everyPage(s, `/v1/agents/ava/edges?memoryId=${id}&type=Supersedes`, edgePageSchema);
    assert.deepEqual(
      edges.pages.flatMap((p) => p.edges.map((e) => e.to)),
      [id],
    );
    await s.close();
  });

  it("narrows a recall with a filter, never past what the partner may hear", async () => {
    const s = await testService();
    await withFacts(s);
    const recall = async (body: object) => {
      const res = await s.call(s.acme, "POST", "/v1/recall", {
        agent: "ava",
        about: "sam",
        query: "Where does Sam work?",
        ...body,
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { hits: { text: string }[] }).hits.map((h) => h.text);
    };
    const all = await recall({});
    assert.ok(all.includes("Sam works at the library."));
    const home = await recall({ filter: { meta: { topic: "home" } } });
    assert.deepEqual(home, ["Sam has a beagle called Rex."]);
    const before = await recall({ filter: { observedBefore: "2024-03-01" } });
    assert.ok(before.length > 0 && before.every((t) => /library|beagle/.test(t)), before.join(" | "));
    // Another partner hears none of Sam's facts, whatever the filter.
    const res = await s.call(s.acme, "POST", "/v1/recall", {
      agent: "ava",
      about: "kim",
      query: "Where does Sam work?",
      filter: { meta: { topic: "work" } },
    });
    assert.deepEqual(((await res.json()) as { hits: unknown[] }).hits, []);
    const bad = await s.call(s.acme, "POST", "/v1/recall", {
      agent: "ava",
      about: "sam",
      query: "x",
      filter: { hearing: { scope: "agent", partners: [] } },
    });
    assert.equal(bad.status, 400);
    assert.equal(errorSchema.parse(await bad.json()).error.field, "filter.hearing");
    await s.close();
  });
});
