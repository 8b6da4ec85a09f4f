/**
 * The library refuses options it would not read: an unknown field of openMemlane's options, of
 * a call's input, a filter or an options object is an InvalidInputError naming it, before
 * anything is opened or stored and before any default is taken in its place.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { memlaneTools, withMemlane } from "../../src/adapters/ai/ai-sdk.js";
import { createService } from "../../src/adapters/server/app.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { openSqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { demoTranscript, testMemlane } from "../fixtures/engine.js";

/** An InvalidInputError naming `field` (and, when given, suggesting `suggestion`). */
function naming(field: string, suggestion?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof InvalidInputError, String(error));
    assert.equal(error.details.field, field, error.message);
    assert.equal(error.details.suggestion, suggestion, error.message);
    assert.match(error.message, new RegExp(`unknown field \`${field.split(".").pop()}\``));
    return true;
  };
}

/** What plain JavaScript may pass: the types would refuse these at compile time. */
const loose = <T>(value: unknown) => value as T;

describe("library: unknown fields are refused, by name", () => {
  it("openMemlane refuses `db` (the CLI's flag) pointing at `store`, and opens no ./memlane.db", async () => {
    const existed = existsSync("memlane.db");
    await assert.rejects(openMemlane(loose({ db: ":memory:" })), (error: InvalidInputError) => {
      naming("db", "store")(error);
      assert.match(error.message, /did you mean `store`\?/);
      return true;
    });
    if (!existed) assert.equal(existsSync("memlane.db"), false, "no default database was created");
    await assert.rejects(openMemlane(loose({ stroe: ":memory:" })), naming("stroe", "store"));
    await assert.rejects(
      openMemlane(loose({ store: ":memory:", embeder: "hash" })),
      naming("embeder", "embedder"),
    );
    await assert.rejects(openMemlane(loose({ store: ":memory:", userId: "sam" })), naming("userId"));
    // A string where the options object goes would also have opened ./memlane.db.
    await assert.rejects(openMemlane(loose("memlane-test.db")), { code: "INVALID_INPUT" });
  });

  it("openMemlane checks the settings inside: endpoints, the reply window, the queue", async () => {
    await assert.rejects(
      openMemlane(
        loose({
          store: ":memory:",
          embedder: "hash",
          chat: { baseURL: "http://x", model: "m", apikey: "k" },
        }),
      ),
      naming("chat.apikey", "apiKey"),
    );
    await assert.rejects(
      openMemlane(loose({ store: ":memory:", embedder: { baseURL: "http://x", model: "m", dimension: 8 } })),
      naming("embedder.dimension", "dimensions"),
    );
    await assert.rejects(
      testMemlane(loose({ replyWindow: { turn: 10 } })),
      naming("replyWindow.turn", "turns"),
    );
    await assert.rejects(
      testMemlane(loose({ queue: { postgres: "postgres://x/y", concurency: 2 } })),
      naming("queue.concurency", "concurrency"),
    );
  });

  it("recall refuses `user_id` and `filters` instead of answering unscoped", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    await mem.ingest(demoTranscript);
    await mem.idle();
    await assert.rejects(
      mem.recall(loose({ agent: "ava", query: "dog", user_id: "sam" })),
      naming("user_id"),
    );
    await assert.rejects(
      mem.recall(loose({ agent: "ava", query: "dog", filters: { about: "sam" } })),
      naming("filters"),
    );
    await assert.rejects(mem.recall(loose({ agent: "ava", qeury: "dog" })), (error: InvalidInputError) => {
      naming("qeury")(error);
      assert.match(error.message, /unknown field `qeury`; did you mean `query`\?/);
      return true;
    });
    // The same recall without the borrowed field answers.
    assert.ok((await mem.recall({ agent: "ava", about: "sam", query: "dog" })).hits.length > 0);
    await mem.close();
  });

  it("sessions, turns, conversations and forget store nothing with an unknown field; meta stays open", async () => {
    const mem = await testMemlane();
    await assert.rejects(
      mem.session(loose({ agent: "ava", partner: "sam", user_id: "sam" })),
      naming("user_id"),
    );
    await assert.rejects(
      mem.conversation(loose({ agents: ["ava", "ben"], partner: "sam" })),
      naming("partner"),
    );
    assert.deepEqual(await mem.agents(), [], "no session was stored");
    const s = await mem.session({ agent: "ava", partner: "sam", meta: { user_id: "sam", channel: "sms" } });
    assert.deepEqual(s.session.meta, { user_id: "sam", channel: "sms" });
    await assert.rejects(s.turn("sam", "I adopted a beagle.", loose({ when: "now" })), naming("when"));
    await assert.rejects(s.reply(loose({ qurey: "pets" })), naming("qurey", "query"));
    await assert.rejects(s.join("kim", loose({ time: "2024-01-01" })), naming("time"));
    assert.deepEqual(await s.turns(), [], "no turn was stored");
    await s.turn("sam", "I adopted a beagle.", { meta: { anything: 1 } });
    await assert.rejects(mem.forget(loose({ agent: "ava", user_id: "sam" })), naming("user_id"));
    await assert.rejects(
      mem.forget(loose({ agent: "ava", about: "sam", everything: true })),
      naming("everything"),
    );
    assert.equal((await s.turns()).length, 1, "forget erased nothing");
    await assert.rejects(mem.resume("ava", s.id, loose({ pertrun: "wait" })), naming("pertrun", "perTurn"));
    await mem.close();
  });

  it("filters and options objects of reads, retry and ingest refuse unknown fields", async () => {
    const mem = await testMemlane();
    await assert.rejects(mem.memories("ava", loose({ user_id: "sam" })), naming("user_id"));
    await assert.rejects(mem.memories("ava", loose({ stauts: "any" })), naming("stauts", "status"));
    await assert.rejects(mem.turns("ava", loose({ session: "s1" })), naming("session", "sessionId"));
    await assert.rejects(mem.operations("ava", loose({ limt: 5 })), naming("limt", "limit"));
    await assert.rejects(mem.retry("ava", undefined, loose({ opne: true })), naming("opne", "open"));
    await assert.rejects(
      mem.ingest(demoTranscript, loose({ onprogress: () => {} })),
      naming("onprogress", "onProgress"),
    );
    assert.deepEqual(await mem.agents(), [], "the refused ingest stored nothing");
    await mem.close();
  });

  it("a transcript's sessions and turns refuse unknown fields; its top level may carry other data", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const [session] = demoTranscript.sessions;
    await assert.rejects(
      mem.ingest({ ...demoTranscript, sessions: [{ ...session, partner_id: "sam" }] }),
      (error: InvalidInputError) => {
        assert.equal(error.details.field, "sessions.0.partner_id");
        assert.match(error.message, /unknown field `partner_id`; did you mean `partner`\?/);
        return true;
      },
    );
    await assert.rejects(
      mem.ingest({
        ...demoTranscript,
        sessions: [{ ...session, turns: [{ speaker: "sam", text: "Hi.", role: "user" }] }],
      }),
      (error: InvalidInputError) => error.details.field === "sessions.0.turns.0.role",
    );
    assert.deepEqual(await mem.agents(), []);
    // The shipped demo files keep their questions beside the transcript: still read.
    const report = await mem.ingest({ ...demoTranscript, questions: [{ q: "Where does Sam work?" }] });
    assert.equal(report.ingested, demoTranscript.sessions.length);
    await mem.close();
  });

  it("the AI SDK's tools and wrapper, and createService, refuse unknown options", async () => {
    const mem = await testMemlane();
    assert.throws(
      () => memlaneTools(loose({ mem, agent: "ava", parnter: "sam" })),
      naming("parnter", "partner"),
    );
    assert.throws(
      () => withMemlane(loose({}), loose({ mem, agent: "ava", partner: "sam", user_id: "sam" })),
      naming("user_id"),
    );
    const keys = await openSqliteKeyStore(":memory:");
    assert.throws(
      () => createService(loose({ mem, keys, maxBodyByte: 10 })),
      naming("maxBodyByte", "maxBodyBytes"),
    );
    await keys.close();
    await mem.close();
  });
});
