/**
 * The forget program as statements, against a small in-memory double of the scope's tables that
 * answers the program's SELECTs and applies its deletes and updates to memories, turns and
 * sessions (so a later read sees what an earlier statement erased, as in a transaction). Each
 * test reads what was erased from the statements issued: which ids, in which order, with which
 * parameters, for both dialects where they differ.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { postgresDialect } from "../../adapters/postgres/dialect.js";
import { InvalidInputError, NotFoundError } from "../../core/errors.js";
import type { Scope } from "../../core/types.js";
import type { ForgetRequest } from "../memory-store.js";
import { sqliteDialect } from "../sqlite/dialect.js";
import { forgetProgram } from "./forget.js";
import { runSync, type SqlDialect, type SqlStatement, type StatementResult } from "./program.js";

type Row = Record<string, unknown>;
const scope: Scope = { tenant: "t1", agent: "ada" };

interface World {
  jobs?: Row[];
  sessions?: Row[];
  turns?: Row[];
  memories?: Row[];
  edges?: Row[];
  operations?: Row[];
  /** Rows touched by the deletes the double does not simulate (edges, embeddings, operations). */
  changes?: Record<string, number>;
  /** An error to throw at a statement. */
  fail?: (s: SqlStatement) => Error | undefined;
}

const listOf = (p: unknown): string[] => (typeof p === "string" ? JSON.parse(p) : (p as string[]));

/** "DELETE memories", "SELECT turns": what a statement does to which table. */
function shape(s: SqlStatement): string {
  const verb = s.sql.trim().split(/\s+/)[0]!;
  const table = /(?:INTO|UPDATE|FROM)\s+(\w+)/.exec(s.sql)?.[1];
  return `${verb} ${table}`;
}

function store(w: World) {
  const sessions = [...(w.sessions ?? [])];
  let turns = [...(w.turns ?? [])];
  let memories = [...(w.memories ?? [])];
  const issued: SqlStatement[] = [];
  const rows = (rows: Row[]): StatementResult => ({ rows, changes: 0 });
  const changed = (changes: number): StatementResult => ({ rows: [], changes });
  const answer = (s: SqlStatement): StatementResult => {
    const { sql, params } = s;
    const last = params.at(-1);
    if (sql.includes("FROM ingest_jobs")) return rows(w.jobs ?? []);
    if (sql.startsWith("SELECT partners, meta FROM sessions")) return rows(sessions);
    if (sql.startsWith("SELECT DISTINCT speaker FROM turns"))
      return rows([...new Set(turns.map((t) => t.speaker))].map((speaker) => ({ speaker })));
    if (sql.startsWith("SELECT 1 AS one FROM sessions"))
      return rows(sessions.filter((x) => x.id === last).map(() => ({ one: 1 })));
    if (sql.startsWith("SELECT id, about, text, source_turns, attributes, session_id, status FROM memories"))
      return rows(memories);
    if (sql.startsWith("SELECT id, session_id FROM turns") && sql.endsWith("speaker = ?"))
      return rows(turns.filter((t) => t.speaker === last));
    if (
      sql.startsWith("SELECT id, session_id, speaker, text, meta FROM turns") &&
      sql.includes("session_id IN")
    )
      return rows(turns.filter((t) => listOf(last).includes(String(t.session_id))));
    if (sql.startsWith("SELECT id, meta, partners FROM sessions"))
      return rows(sessions.filter((x) => listOf(last).includes(String(x.id))));
    if (sql.startsWith("SELECT id FROM turns") && sql.endsWith("session_id = ?"))
      return rows(turns.filter((t) => t.session_id === last));
    if (sql.startsWith("SELECT src, dst, type FROM edges")) return rows(w.edges ?? []);
    if (sql.startsWith("SELECT text, speaker, meta FROM turns"))
      return rows(turns.filter((t) => listOf(last).includes(String(t.id))));
    if (sql.startsWith("SELECT id, session_id, speaker, text, meta FROM turns")) return rows(turns);
    if (sql.startsWith("SELECT id, text, source_turns FROM memories")) return rows(memories);
    if (sql.startsWith("SELECT id, inputs, outputs, rationale FROM operations"))
      return rows(w.operations ?? []);
    if (sql.startsWith("DELETE FROM memories")) {
      const before = memories.length;
      memories = memories.filter((m) => !listOf(last).includes(String(m.id)));
      return changed(before - memories.length);
    }
    if (sql.startsWith("DELETE FROM turns")) {
      const before = turns.length;
      turns = turns.filter((t) => !listOf(last).includes(String(t.id)));
      return changed(before - turns.length);
    }
    if (sql.startsWith("DELETE FROM sessions")) return changed(sessions.filter((x) => x.id === last).length);
    if (sql.startsWith("UPDATE turns SET text")) {
      turns = turns.map((t) => (t.id === last ? { ...t, text: params[0], meta: params[1] } : t));
      return changed(1);
    }
    if (sql.startsWith("UPDATE memories SET status = 'active'")) return changed(listOf(last).length);
    return changed(w.changes?.[shape(s)] ?? 0);
  };
  const run = (s: SqlStatement): StatementResult => {
    issued.push(s);
    const error = w.fail?.(s);
    if (error) throw error;
    return answer(s);
  };
  return { issued, run };
}

const session = (id: string, partners: string[], meta: Row = {}): Row => ({
  id,
  partners: JSON.stringify(partners),
  meta: JSON.stringify(meta),
});
const turn = (id: string, sessionId: string, speaker: string, text: string, meta: Row = {}): Row => ({
  id,
  session_id: sessionId,
  speaker,
  text,
  meta: JSON.stringify(meta),
});
const memory = (id: string, about: string, text: string, extra: Partial<Row> = {}): Row => ({
  id,
  about,
  text,
  source_turns: "[]",
  attributes: "{}",
  session_id: null,
  status: "active",
  ...extra,
});
const supersedes = (newer: string, older: string): Row => ({ src: newer, dst: older, type: "Supersedes" });

const forget = (w: World, request: ForgetRequest, d: SqlDialect = sqliteDialect) => {
  const db = store(w);
  const report = runSync(forgetProgram(d, scope, request), db.run);
  return { report, issued: db.issued };
};
/** The ids a DELETE or UPDATE on `table` named (its list parameter). */
const named = (issued: SqlStatement[], prefix: string): string[][] =>
  issued.filter((s) => s.sql.startsWith(prefix)).map((s) => listOf(s.params.at(-1)));

describe("forgetProgram", () => {
  for (const d of [sqliteDialect, postgresDialect])
    test(`a request naming nothing is refused before any statement (${d.name})`, () => {
      const db = store({});
      assert.throws(() => runSync(forgetProgram(d, scope, {}), db.run), InvalidInputError);
      assert.throws(() => runSync(forgetProgram(d, scope, { memoryIds: [] }), db.run), InvalidInputError);
      assert.deepEqual(db.issued, []);
    });

  describe("by memory id", () => {
    const world: World = {
      memories: [
        memory("m1", "bob", "Bob lives in Paris", { status: "superseded" }),
        memory("m2", "bob", "Bob lives in Lyon", { status: "superseded" }),
        memory("m3", "bob", "Bob lives in Rome", { status: "superseded" }),
        memory("m4", "bob", "Bob lives in Oslo"),
        memory("x", "cy", "Cy likes tea"),
      ],
      // m4 -> m3 -> m2 -> m1, each newer superseding the older.
      edges: [supersedes("m4", "m3"), supersedes("m3", "m2"), supersedes("m2", "m1")],
      changes: { "DELETE edges": 3, "DELETE embeddings": 2, "DELETE operations": 1 },
    };

    test("takes the memory and its earlier forms, never its later ones, and ignores an unknown id", () => {
      const { issued } = forget(world, { memoryIds: ["m3", "nope"] });
      assert.deepEqual(named(issued, "DELETE FROM memories"), [["m3", "m2", "m1"]]);
    });

    test("issues the erase in a fixed order: operations, then edges, vectors, refs and memories, then turns", () => {
      const { issued } = forget(world, { memoryIds: ["m3"] });
      assert.deepEqual(issued.map(shape), [
        "SELECT ingest_jobs",
        "SELECT memories",
        "SELECT edges",
        "DELETE operations",
        "DELETE edges",
        "DELETE embeddings", // memory vectors
        "DELETE operation_refs",
        "DELETE memories",
        "DELETE embeddings", // turn vectors (none named)
        "DELETE turns",
        "SELECT turns", // looking for copies to redact
        "SELECT memories",
        "SELECT operations",
      ]);
      const edges = issued[4]!;
      assert.equal(
        edges.sql,
        "DELETE FROM edges WHERE tenant = ? AND agent = ? AND (src IN (SELECT value FROM json_each(?)) OR dst IN (SELECT value FROM json_each(?)))",
      );
      const list = '["m3","m2","m1"]';
      assert.deepEqual(edges.params, ["t1", "ada", list, list]);
      assert.deepEqual(issued[5]!.params, ["t1", "ada", list]);
      assert.match(issued[5]!.sql, /owner_kind = 'memory'/);
      assert.match(issued[8]!.sql, /owner_kind = 'turn'/);
      assert.deepEqual(issued[9]!.params, ["t1", "ada", "[]"]);
    });

    test("on SQLite the refs are found by memory alone; on Postgres by scope and memory", () => {
      const lite = forget(world, { memoryIds: ["m1"] }).issued;
      const ops = lite.find((s) => s.sql.startsWith("DELETE FROM operations"))!;
      assert.match(
        ops.sql,
        /SELECT op_id FROM operation_refs WHERE memory_id IN \(SELECT value FROM json_each\(\?\)\)/,
      );
      assert.deepEqual(ops.params, ["t1", "ada", "[]", '["m1"]']);
      const refs = lite.find((s) => s.sql.startsWith("DELETE FROM operation_refs"))!;
      assert.deepEqual(refs.params, ['["m1"]', "t1", "ada"]);

      const pg = forget(world, { memoryIds: ["m1"] }, postgresDialect).issued;
      const pgOps = pg.find((s) => s.sql.startsWith("DELETE FROM operations"))!;
      assert.match(
        pgOps.sql,
        /operation_refs WHERE tenant = \? AND agent = \? AND memory_id IN \(SELECT unnest/,
      );
      assert.deepEqual(pgOps.params, ["t1", "ada", [], "t1", "ada", ["m1"]]);
      const pgRefs = pg.find((s) => s.sql.startsWith("DELETE FROM operation_refs"))!;
      assert.deepEqual(pgRefs.params, ["t1", "ada", ["m1"], "t1", "ada"]);
    });

    test("reports what each statement touched", () => {
      const { report } = forget(world, { memoryIds: ["m3"] });
      assert.deepEqual(report, {
        memories: 3,
        edges: 3,
        operations: 1,
        embeddings: 4, // memory vectors, then (none) turn vectors: the double answers 2 for each
        turns: 0,
        sessions: 0,
        redacted: 0,
      });
    });

    test("an id-only forget brings back no earlier version: they go with it", () => {
      const { issued } = forget(world, { memoryIds: ["m4"] });
      assert.equal(issued.filter((s) => s.sql.startsWith("UPDATE memories")).length, 0);
    });

    test("an earlier form a restore made current again stays, and so does what it replaced", () => {
      // m2 was restored over m3: it is active again while m3, which had replaced it, is past.
      const restored: World = {
        ...world,
        memories: (world.memories ?? []).map((m) =>
          m.id === "m2" ? { ...m, status: "active" } : m.id === "m4" ? { ...m, status: "superseded" } : m,
        ),
      };
      const { issued } = forget(restored, { memoryIds: ["m3"] });
      assert.deepEqual(named(issued, "DELETE FROM memories"), [["m3"]]);
    });
  });

  describe("by session", () => {
    const world: World = {
      sessions: [session("s1", ["bob"]), session("s2", ["bob"])],
      turns: [
        turn("u1", "s1", "bob", "I moved to Rome last week."),
        turn("u2", "s1", "ada", "Rome, how exciting!", { generated: true }),
        turn("u3", "s2", "bob", "Hello again."),
      ],
      memories: [
        memory("m1", "bob", "Bob lives in Paris", { status: "superseded", session_id: "s0" }),
        memory("m2", "bob", "Bob lives in Rome", { session_id: "s1", source_turns: '["u1"]' }),
        // Filed under another session, but made from an erased turn: it carries its words.
        memory("m3", "bob", "Bob moved recently", { session_id: "s2", source_turns: '["u1"]' }),
        memory("m4", "bob", "Bob says hello", { session_id: "s2", source_turns: '["u3"]' }),
      ],
      edges: [supersedes("m2", "m1")],
    };

    test("erases the session, its turns, the memories made from it or citing its turns", () => {
      const { issued, report } = forget(world, { sessionId: "s1" });
      assert.deepEqual(named(issued, "DELETE FROM memories"), [["m2", "m3"]]);
      assert.deepEqual(named(issued, "DELETE FROM turns"), [["u1", "u2"]]);
      const sessions = issued.find((s) => s.sql.startsWith("DELETE FROM sessions"))!;
      assert.deepEqual(sessions.params, ["t1", "ada", "s1"]);
      const ops = issued.find((s) => s.sql.startsWith("DELETE FROM operations"))!;
      assert.deepEqual(ops.params.slice(0, 3), ["t1", "ada", '["s1"]']);
      assert.equal(report.sessions, 1);
      assert.equal(report.turns, 2);
    });

    test("a version only an erased current memory had replaced is current again", () => {
      const { issued } = forget(world, { sessionId: "s1" });
      const again = issued.filter((s) => s.sql.startsWith("UPDATE memories SET status = 'active'"));
      assert.equal(again.length, 1);
      assert.equal(
        again[0]!.sql,
        "UPDATE memories SET status = 'active', invalid_at = NULL WHERE tenant = ? AND agent = ? AND status = 'superseded' AND id IN (SELECT value FROM json_each(?))",
      );
      assert.deepEqual(again[0]!.params, ["t1", "ada", '["m1"]']);
      // Reactivation comes after the erase and the redaction.
      assert.ok(
        issued.indexOf(again[0]!) > issued.findIndex((s) => s.sql.startsWith("DELETE FROM memories")),
      );
    });

    // Each row: the history around one kept memory "old", and whether forgetting s1 (which
    // erases "gone", an active memory, and "mid", a superseded one) makes "old" current again.
    const histories: { name: string; memories: Row[]; edges: Row[]; back: string[] }[] = [
      {
        name: "replaced by an erased current memory: back",
        memories: [
          memory("old", "bob", "o", { status: "superseded" }),
          memory("gone", "bob", "g", { session_id: "s1" }),
        ],
        edges: [supersedes("gone", "old")],
        back: ["old"],
      },
      {
        name: "fused into an erased current memory: back",
        memories: [
          memory("old", "bob", "o", { status: "superseded" }),
          memory("gone", "bob", "g", { session_id: "s1" }),
        ],
        edges: [{ src: "old", dst: "gone", type: "FusedInto" }],
        back: ["old"],
      },
      {
        name: "replaced by an erased past version only: stays past",
        memories: [
          memory("old", "bob", "o", { status: "superseded" }),
          memory("mid", "bob", "m", { session_id: "s1", status: "superseded" }),
        ],
        edges: [supersedes("mid", "old")],
        back: [],
      },
      {
        name: "replaced through an erased version by a kept one: stays past",
        memories: [
          memory("old", "bob", "o", { status: "superseded" }),
          memory("gone", "bob", "g", { session_id: "s1", status: "superseded" }),
          memory("keep", "bob", "k"),
        ],
        edges: [supersedes("gone", "old"), supersedes("keep", "gone")],
        back: [],
      },
      {
        name: "replaced by an erased current memory and by a kept one: stays past",
        memories: [
          memory("old", "bob", "o", { status: "superseded" }),
          memory("gone", "bob", "g", { session_id: "s1" }),
          memory("keep", "bob", "k"),
        ],
        edges: [supersedes("gone", "old"), supersedes("keep", "old")],
        back: [],
      },
      {
        name: "erased itself: not brought back",
        memories: [
          memory("old", "bob", "o", { status: "superseded", session_id: "s1" }),
          memory("gone", "bob", "g", { session_id: "s1" }),
        ],
        edges: [supersedes("gone", "old")],
        back: [],
      },
    ];
    for (const h of histories)
      test(`a kept version ${h.name}`, () => {
        const { issued } = forget(
          { sessions: [session("s1", ["bob"])], memories: h.memories, edges: h.edges },
          { sessionId: "s1" },
        );
        assert.deepEqual(named(issued, "UPDATE memories SET status = 'active'").flat(), h.back);
      });

    test("an unknown session is NOT_FOUND on field sessionId, and nothing is erased", () => {
      const db = store(world);
      assert.throws(
        () => runSync(forgetProgram(sqliteDialect, scope, { sessionId: "s9" }), db.run),
        (e: unknown) => e instanceof NotFoundError && e.details.field === "sessionId",
      );
      assert.deepEqual(db.issued.map(shape), ["SELECT ingest_jobs", "SELECT sessions"]);
    });

    test("a session only an upload holds may be forgotten: it is taken out of the upload's transcripts", () => {
      const transcripts = [
        {
          agent: "ada",
          sessions: [
            { id: "s7", partners: ["bob"], turns: [{ speaker: "bob", text: "hi" }] },
            { id: "s8", partners: ["bob"], turns: [{ speaker: "bob", text: "yo" }] },
          ],
        },
        { agent: "other", sessions: [{ id: "s7", turns: [] }] },
      ];
      const { issued, report } = forget(
        { jobs: [{ id: "job1", transcripts: JSON.stringify(transcripts) }] },
        { sessionId: "s7" },
      );
      const update = issued.at(-1)!;
      assert.equal(update.sql, "UPDATE ingest_jobs SET transcripts = ? WHERE tenant = ? AND id = ?");
      assert.deepEqual(JSON.parse(String(update.params[0])), [
        { agent: "ada", sessions: [transcripts[0]!.sessions[1]] },
        transcripts[1],
      ]);
      assert.deepEqual(update.params.slice(1), ["t1", "job1"]);
      assert.equal(report.sessions, 0, "nothing stored to delete");
    });

    test("a session this process holds (request.pending) may be forgotten though nothing stores it", () => {
      const { issued } = forget({}, { sessionId: "s7", pending: { people: [], sessions: ["s7"] } });
      assert.ok(issued.some((s) => s.sql.startsWith("DELETE FROM sessions")));
      assert.equal(issued.filter((s) => s.sql.startsWith("UPDATE ingest_jobs")).length, 0);
    });

    test("jobs are read for the tenant, whatever the agent, and only while queued or running", () => {
      const { issued } = forget({}, { sessionId: "s7", pending: { people: [], sessions: ["s7"] } });
      assert.equal(
        issued[0]!.sql,
        "SELECT id, transcripts FROM ingest_jobs WHERE tenant = ? AND state IN ('queued','running') AND transcripts IS NOT NULL",
      );
      assert.deepEqual(issued[0]!.params, ["t1"]);
    });
  });

  describe("by person", () => {
    const world: World = {
      sessions: [session("s1", ["bob"]), session("s2", ["cy"])],
      turns: [
        turn("u1", "s1", "bob", "My dog is called Rex."),
        turn("u2", "s1", "ada", "Rex is a fine name."),
        turn("u3", "s2", "cy", "I like tea."),
        turn("u4", "s2", "ada", "Tea is lovely."),
      ],
      memories: [
        memory("m1", "bob", "Bob has a dog"),
        memory("m2", "cy", "Cy met Bob at the park"), // names Bob
        memory("m3", "cy", "Cy likes tea", { source_turns: '["u3"]' }),
        memory("m4", "ada", "The dog is called Rex", { source_turns: '["u1"]' }), // made from Bob's words
        memory("m5", "cy", "Cy talked about bobsleigh"), // contains the letters, not the name
      ],
    };

    test("erases their memories, the memories naming them or made from their words, their turns and the replies to them", () => {
      const { issued } = forget(world, { about: "bob" });
      assert.deepEqual(named(issued, "DELETE FROM memories"), [["m1", "m2", "m4"]]);
      assert.deepEqual(named(issued, "DELETE FROM turns"), [["u1", "u2"]]);
      const ops = issued.find((s) => s.sql.startsWith("DELETE FROM operations"))!;
      assert.deepEqual(
        ops.params.slice(0, 3),
        ["t1", "ada", '["s1"]'],
        "the operations of the sessions they spoke in",
      );
      assert.equal(issued.filter((s) => s.sql.startsWith("DELETE FROM sessions")).length, 0);
    });

    test("looks the person up before reading anything else, and reads their turns by speaker", () => {
      const { issued } = forget(world, { about: "bob" });
      assert.deepEqual(issued.slice(0, 6).map(shape), [
        "SELECT ingest_jobs",
        "SELECT sessions", // partners and agents
        "SELECT turns", // speakers
        "SELECT memories",
        "SELECT turns", // their turns
        "SELECT turns", // their sessions' turns, for the replies
      ]);
      assert.deepEqual(issued[4]!.params, ["t1", "ada", "bob"]);
    });

    test("a reply naming another partner of the session is theirs, not the forgotten person's", () => {
      const { issued } = forget(
        {
          sessions: [session("s1", ["bob", "cy"])],
          turns: [
            turn("u1", "s1", "bob", "Hi all."),
            turn("u2", "s1", "ada", "Welcome, Cy, good to see you."),
            turn("u3", "s1", "ada", "And you too."),
          ],
        },
        { about: "bob" },
      );
      assert.deepEqual(named(issued, "DELETE FROM turns"), [["u1", "u3"]]);
    });

    test("a person whose name is a month is never matched in memory texts", () => {
      const { issued } = forget(
        {
          sessions: [session("s1", ["may"])],
          turns: [turn("u1", "s1", "may", "Hi.")],
          memories: [memory("m1", "cy", "Cy travels in May"), memory("m2", "may", "May likes jazz")],
        },
        { about: "may" },
      );
      assert.deepEqual(named(issued, "DELETE FROM memories"), [["m2"]]);
    });

    test("the person is found in normal form and erased as stored", () => {
      const stored = "zo\u00eb";
      const { issued } = forget(
        { sessions: [session("s1", [stored])], turns: [turn("u1", "s1", stored, "Hi.")] },
        { about: "zoe\u0308" },
      );
      assert.deepEqual(issued[4]!.params, ["t1", "ada", stored]);
    });

    test("a person only an upload names may be forgotten; their turns leave the upload", () => {
      const transcripts = [
        {
          agent: "ada",
          sessions: [
            {
              id: "s7",
              partners: ["dee"],
              turns: [
                { speaker: "dee", text: "My code is 7731." },
                { speaker: "ada", text: "Noted." },
              ],
            },
            { id: "s8", partners: ["eve"], turns: [{ speaker: "eve", text: "Hello." }] },
          ],
        },
      ];
      const { issued } = forget(
        { jobs: [{ id: "j", transcripts: JSON.stringify(transcripts) }] },
        { about: "dee" },
      );
      const update = issued.find((s) => s.sql.startsWith("UPDATE ingest_jobs"))!;
      assert.deepEqual(JSON.parse(String(update.params[0])), [
        { agent: "ada", sessions: [transcripts[0]!.sessions[1]] },
      ]);
    });

    const unknown = [
      {
        name: "names the people it knows, sorted, without the agent itself",
        world,
        message: 'No one called "rex" in the memory of "ada"; the people it knows: "bob", "cy"',
        known: ["bob", "cy"],
      },
      {
        name: "says it knows no one when the scope is empty",
        world: {},
        message: 'No one called "rex" in the memory of "ada": it knows no one yet',
        known: [],
      },
    ];
    for (const u of unknown)
      test(`a word that names no one is NOT_FOUND on field about, and ${u.name}`, () => {
        const db = store(u.world);
        assert.throws(
          () => runSync(forgetProgram(sqliteDialect, scope, { about: "rex" }), db.run),
          (e: unknown) =>
            e instanceof NotFoundError &&
            e.message === u.message &&
            e.details.field === "about" &&
            JSON.stringify(e.details.known) === JSON.stringify(u.known),
        );
        assert.ok(!db.issued.some((s) => /^(DELETE|UPDATE)/.test(s.sql)));
      });

    test("the agent is not a person of its own memory", () => {
      const db = store(world);
      assert.throws(
        () => runSync(forgetProgram(sqliteDialect, scope, { about: "ada" }), db.run),
        NotFoundError,
      );
    });

    test("past fifty people, the message lists fifty and says how many there are", () => {
      const people = Array.from({ length: 60 }, (_, i) => `p${String(i).padStart(2, "0")}`);
      const db = store({ sessions: [session("s1", people)] });
      assert.throws(
        () => runSync(forgetProgram(sqliteDialect, scope, { about: "rex" }), db.run),
        (e: unknown) =>
          e instanceof NotFoundError &&
          e.message.endsWith('"p49", … (60 in all)') &&
          (e.details.known as string[]).length === 60,
      );
    });
  });

  describe("redaction", () => {
    const text = "Bob keeps his spare key under the blue flowerpot";
    const world: World = {
      sessions: [session("s1", ["bob"]), session("s2", ["cy"])],
      turns: [
        turn("u1", "s2", "cy", `Did you know? ${text}. Funny.`, { k: 1 }),
        turn("u2", "s2", "cy", "Nothing to see here at all."),
      ],
      memories: [memory("m1", "bob", text), memory("m2", "cy", `Cy heard that ${text}`)],
      operations: [
        { id: "o1", inputs: JSON.stringify({ said: text }), outputs: "null", rationale: null },
        { id: "o2", inputs: JSON.stringify({ said: "tea" }), outputs: "null", rationale: "none" },
      ],
      changes: { "DELETE embeddings": 1 },
    };

    test("a verbatim copy in another turn is redacted in place, marked with when, and loses its vector", () => {
      const before = new Date().toISOString();
      const { issued } = forget(world, { memoryIds: ["m1"] });
      const updates = issued.filter((s) => s.sql.startsWith("UPDATE turns"));
      assert.equal(updates.length, 1);
      const [value, meta, tenant, agent, id] = updates[0]!.params;
      assert.equal(value, "Did you know? [forgotten]. Funny.");
      const m = JSON.parse(String(meta));
      assert.equal(m.k, 1);
      assert.equal(m.redacted, true);
      assert.ok(m.redactedAt >= before);
      assert.deepEqual([tenant, agent, id], ["t1", "ada", "u1"]);
      const next = issued[issued.indexOf(updates[0]!) + 1]!;
      assert.equal(
        next.sql,
        "DELETE FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = 'turn' AND owner_id = ?",
      );
      assert.deepEqual(next.params, ["t1", "ada", "u1"]);
    });

    test("a memory repeating the erased text goes too, with its edges and vectors", () => {
      const { issued, report } = forget(world, { memoryIds: ["m1"] });
      assert.deepEqual(named(issued, "DELETE FROM memories"), [["m1"], ["m2"]]);
      assert.equal(report.memories, 2);
      assert.equal(named(issued, "DELETE FROM edges").length, 2);
    });

    test("an operation quoting the erased text is rewritten; one that does not is left", () => {
      const { issued, report } = forget(world, { memoryIds: ["m1"] });
      const updates = issued.filter((s) => s.sql.startsWith("UPDATE operations"));
      assert.equal(updates.length, 1);
      assert.equal(
        updates[0]!.sql,
        "UPDATE operations SET inputs = ?, outputs = ?, rationale = ? WHERE tenant = ? AND agent = ? AND id = ?",
      );
      assert.deepEqual(updates[0]!.params, ['{"said":"[forgotten]"}', "null", null, "t1", "ada", "o1"]);
      assert.equal(report.redacted, 2, "one turn and one operation");
    });

    test("a short erased text (under sixteen characters) is not looked for elsewhere", () => {
      const { issued } = forget(
        {
          turns: [turn("u1", "s2", "cy", "Bob likes jazz.")],
          memories: [memory("m1", "bob", "Bob likes jazz")],
          operations: [{ id: "o1", inputs: '"Bob likes jazz"', outputs: "null", rationale: null }],
        },
        { memoryIds: ["m1"] },
      );
      assert.ok(!issued.some((s) => s.sql.startsWith("UPDATE")));
      assert.ok(
        !issued.some((s) => s.sql.startsWith("SELECT id, inputs")),
        "no text to look for, no log read",
      );
    });
  });

  test("a failing statement stops the program there, its error unchanged", () => {
    const failure = new Error("disk I/O error");
    const db = store({
      memories: [memory("m1", "bob", "Bob has a cat")],
      fail: (s) => (s.sql.startsWith("DELETE FROM memories") ? failure : undefined),
    });
    assert.throws(
      () => runSync(forgetProgram(sqliteDialect, scope, { memoryIds: ["m1"] }), db.run),
      (e: unknown) => e === failure,
    );
    assert.equal(db.issued.at(-1)!.sql.startsWith("DELETE FROM memories"), true);
  });

  test("no statement opens, ends or marks a transaction: the caller's transaction holds the erase", () => {
    for (const d of [sqliteDialect, postgresDialect]) {
      const { issued } = forget(
        {
          sessions: [session("s1", ["bob"])],
          turns: [turn("u1", "s1", "bob", "I am Bob and I live at 12 Long Road in Leeds.")],
          memories: [memory("m1", "bob", "Bob lives at 12 Long Road")],
        },
        { about: "bob" },
        d,
      );
      assert.ok(issued.length > 10);
      for (const s of issued) assert.doesNotMatch(s.sql, /\b(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i);
    }
  });
});
