/**
 * The write plan as statements: a recording runner stands in for the database, so each test sees
 * exactly which statements a WriteBatch issues, in which order, with which parameters, and where
 * the program stops when a statement fails. Both dialects run the same plan; the Postgres dialect
 * imports no driver (its runner takes any `query`), so it is exercised here without a server.
 * The program never opens or closes a transaction itself: it runs inside the caller's, and a
 * refusal is a throw that the caller turns into a rollback.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { postgresDialect, postgresRunner } from "../../adapters/postgres/dialect.js";
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Memory, Operation, Scope, Session, Turn } from "../../core/types.js";
import type { WriteBatch } from "../memory-store.js";
import { sqliteDialect } from "../sqlite/dialect.js";
import { runAsync, runSync, type SqlDialect, type SqlStatement, type StatementResult } from "./program.js";
import { writeBatch } from "./write-batch.js";

const scope: Scope = { tenant: "t1", agent: "ada" };

type Answer = Partial<StatementResult> | Error | undefined;

/** Records every statement; `answer` gives a statement's result (or an error to throw at it). */
function recorder(answer: (s: SqlStatement, index: number) => Answer = () => undefined) {
  const issued: SqlStatement[] = [];
  const run = (s: SqlStatement): StatementResult => {
    issued.push(s);
    const a = answer(s, issued.length - 1);
    if (a instanceof Error) throw a;
    return { rows: a?.rows ?? [], changes: a?.changes ?? 1 };
  };
  return { issued, run };
}

/** "INSERT sessions", "UPDATE memories", "SELECT turns": what a statement does to which table. */
function shape(s: SqlStatement): string {
  const verb = s.sql.trim().split(/\s+/)[0]!;
  const table = /(?:INTO|UPDATE|FROM)\s+(\w+)/.exec(s.sql)?.[1];
  return `${verb} ${table}`;
}

const session = (id: string, extra: Partial<Session> = {}): Session => ({
  id,
  tenant: scope.tenant,
  agent: scope.agent,
  partners: ["bob"],
  at: "2024-01-01T00:00:00.000Z",
  status: "open",
  strategy: "emma",
  meta: {},
  recordedAt: "2024-01-01T00:00:01.000Z",
  ...extra,
});

const turn = (id: string, index: number): Turn => ({
  id,
  tenant: scope.tenant,
  agent: scope.agent,
  sessionId: "s1",
  index,
  speaker: "bob",
  text: `turn ${index}`,
  at: "2024-01-01T00:00:00.000Z",
  meta: { k: index },
});

const memory = (id: string, extra: Partial<Memory> = {}): Memory => ({
  id,
  tenant: scope.tenant,
  agent: scope.agent,
  about: "bob",
  text: `memory ${id}`,
  kind: "fact",
  strategy: "emma",
  observedAt: "2024-01-01T00:00:00.000Z",
  recordedAt: "2024-01-01T00:00:02.000Z",
  status: "active",
  invalidAt: null,
  sessionId: "s1",
  sourceTurns: ["u1"],
  attributes: { a: 1 },
  ...extra,
});

const operation = (id: string, memoryIds: string[]): Operation => ({
  id,
  tenant: scope.tenant,
  agent: scope.agent,
  type: "NEW",
  status: "done",
  strategy: "emma",
  model: "m",
  sessionId: "s1",
  memoryIds,
  inputs: { in: 1 },
  outputs: undefined,
  rationale: null,
  error: null,
  usage: { calls: 1, promptTokens: 2, completionTokens: 3, latencyMs: 4.5 },
  at: "2024-01-01T00:00:00.000Z",
  recordedAt: "2024-01-01T00:00:03.000Z",
});

const full: WriteBatch = {
  sessions: [session("s1")],
  sessionUpdates: [{ id: "s0", partners: ["bob", "cy"] }],
  sessionStatus: [{ id: "s0", status: "consolidated" }],
  turns: [turn("u1", 0), turn("u2", 1)],
  memories: [memory("m2")],
  supersede: [{ oldId: "m1", byId: "m2", at: "2024-02-01T00:00:00.000Z" }],
  edges: [
    {
      id: "e1",
      tenant: scope.tenant,
      agent: scope.agent,
      from: "m2",
      to: "m3",
      type: "Cause",
      attributes: {},
      recordedAt: "2024-01-01T00:00:00.000Z",
    },
  ],
  embeddings: [{ ownerKind: "memory", ownerId: "m2", model: "hash", vector: new Float32Array([1, 2]) }],
  operations: [operation("o1", ["m2", "m2", "m1"])],
  operationStatus: [{ id: "o0", status: "failed", error: "boom" }],
};

const dialects: [string, SqlDialect][] = [
  ["sqlite", sqliteDialect],
  ["postgres", postgresDialect],
];

describe("writeBatch", () => {
  for (const [name, d] of dialects)
    test(`an empty batch issues no statement (${name})`, () => {
      const r = recorder();
      runSync(writeBatch(d, scope, {}), r.run);
      assert.deepEqual(r.issued, []);
    });

  test("a full batch on SQLite writes table by table, one INSERT per row, in the plan's order", () => {
    const r = recorder();
    runSync(writeBatch(sqliteDialect, scope, full), r.run);
    assert.deepEqual(r.issued.map(shape), [
      "INSERT sessions",
      "UPDATE sessions", // partners of s0
      "UPDATE sessions", // status of s0
      "INSERT turns",
      "INSERT turns",
      "INSERT memories",
      "UPDATE memories", // m1 superseded
      "INSERT edges", // the Supersedes edge
      "INSERT edges", // e1
      "INSERT embeddings",
      "INSERT operations",
      "INSERT operation_refs", // m2 once, though listed twice
      "INSERT operation_refs",
      "UPDATE operations",
    ]);
  });

  test("a full batch on Postgres writes one multi-row INSERT per table, in the same order", () => {
    const r = recorder();
    runSync(writeBatch(postgresDialect, scope, full), r.run);
    assert.deepEqual(r.issued.map(shape), [
      "INSERT sessions",
      "UPDATE sessions",
      "UPDATE sessions",
      "INSERT turns",
      "INSERT memories",
      "UPDATE memories",
      "INSERT edges",
      "INSERT embeddings",
      "INSERT operations",
      "INSERT operation_refs",
      "UPDATE operations",
    ]);
    const turns = r.issued[3]!;
    assert.equal(
      turns.sql,
      "INSERT INTO turns (tenant, agent, id, session_id, idx, speaker, text, at, meta) SELECT tenant, agent, id, session_id, idx, speaker, text, at, meta FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::text[], ?::text[]) AS u(tenant, agent, id, session_id, idx, speaker, text, at, meta)",
    );
    // One array per column, the rows in order.
    assert.deepEqual(turns.params, [
      ["t1", "t1"],
      ["ada", "ada"],
      ["u1", "u2"],
      ["s1", "s1"],
      [0, 1],
      ["bob", "bob"],
      ["turn 0", "turn 1"],
      ["2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z"],
      ['{"k":0}', '{"k":1}'],
    ]);
  });

  test("a SQLite row's parameters follow its columns, JSON columns as text", () => {
    const r = recorder();
    runSync(writeBatch(sqliteDialect, scope, { memories: [memory("m9", { invalidAt: null })] }), r.run);
    assert.equal(r.issued.length, 1);
    assert.equal(
      r.issued[0]!.sql,
      "INSERT INTO memories (tenant, agent, id, about, text, kind, strategy, observed_at, recorded_at, status, invalid_at, session_id, source_turns, attributes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    );
    assert.deepEqual(r.issued[0]!.params, [
      "t1",
      "ada",
      "m9",
      "bob",
      "memory m9",
      "fact",
      "emma",
      "2024-01-01T00:00:00.000Z",
      "2024-01-01T00:00:02.000Z",
      "active",
      null,
      "s1",
      '["u1"]',
      '{"a":1}',
    ]);
  });

  test("a row without recordedAt is stamped with the time of the write", () => {
    const r = recorder();
    const before = new Date().toISOString();
    runSync(writeBatch(sqliteDialect, scope, { sessions: [session("s2", { recordedAt: "" })] }), r.run);
    const stamped = String(r.issued[0]!.params.at(-1));
    assert.ok(stamped >= before && stamped <= new Date().toISOString(), stamped);
  });

  describe("requireTurns", () => {
    test("counts the distinct turns first and writes when all are there (SQLite lists as JSON)", () => {
      const r = recorder((s) => (s.sql.startsWith("SELECT") ? { rows: [{ n: 2 }] } : undefined));
      runSync(
        writeBatch(sqliteDialect, scope, { requireTurns: ["u1", "u2", "u1"], memories: [memory("m1")] }),
        r.run,
      );
      assert.deepEqual(r.issued.map(shape), ["SELECT turns", "INSERT memories"]);
      assert.equal(
        r.issued[0]!.sql,
        "SELECT count(*) AS n FROM turns WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?))",
      );
      assert.deepEqual(r.issued[0]!.params, ["t1", "ada", '["u1","u2"]']);
    });

    test("on Postgres the list travels as an array and the count may come back as a string", () => {
      const r = recorder((s) => (s.sql.startsWith("SELECT") ? { rows: [{ n: "2" }] } : undefined));
      runSync(
        writeBatch(postgresDialect, scope, { requireTurns: ["u1", "u2"], memories: [memory("m1")] }),
        r.run,
      );
      assert.equal(
        r.issued[0]!.sql,
        "SELECT count(*) AS n FROM turns WHERE tenant = ? AND agent = ? AND id IN (SELECT unnest(?::text[]))",
      );
      assert.deepEqual(r.issued[0]!.params, ["t1", "ada", ["u1", "u2"]]);
      assert.equal(r.issued.length, 2);
    });

    test("a turn redacted after the writer read it is counted as gone", () => {
      const r = recorder(() => ({ rows: [{ n: 1 }] }));
      runSync(
        writeBatch(sqliteDialect, scope, {
          requireTurns: ["u1"],
          requireTurnsReadAt: "2024-05-01T00:00:00.000Z",
        }),
        r.run,
      );
      assert.equal(
        r.issued[0]!.sql,
        "SELECT count(*) AS n FROM turns WHERE tenant = ? AND agent = ? AND id IN (SELECT value FROM json_each(?)) AND (json_extract(meta, '$.redactedAt') IS NULL OR json_extract(meta, '$.redactedAt') < ?)",
      );
      assert.deepEqual(r.issued[0]!.params, ["t1", "ada", '["u1"]', "2024-05-01T00:00:00.000Z"]);
    });

    for (const rows of [[{ n: 1 }], [{ n: 3 }], []])
      test(`a count of ${JSON.stringify(rows)} for two turns refuses the batch before anything is written`, () => {
        const r = recorder((s) => (s.sql.startsWith("SELECT") ? { rows } : undefined));
        assert.throws(
          () =>
            runSync(
              writeBatch(sqliteDialect, scope, { requireTurns: ["u1", "u2"], sessions: [session("s1")] }),
              r.run,
            ),
          (e: unknown) => e instanceof ConflictError && e.details.reason === "turns-forgotten",
        );
        assert.deepEqual(r.issued.map(shape), ["SELECT turns"]);
      });

    test("an empty requireTurns checks nothing", () => {
      const r = recorder();
      runSync(writeBatch(sqliteDialect, scope, { requireTurns: [], sessions: [session("s1")] }), r.run);
      assert.deepEqual(r.issued.map(shape), ["INSERT sessions"]);
    });
  });

  describe("sessions", () => {
    test("an update leaves what it does not name as stored (NULL coalesces to the column)", () => {
      const r = recorder();
      runSync(
        writeBatch(sqliteDialect, scope, {
          sessionUpdates: [
            { id: "s1", meta: { left: ["bob"] } },
            { id: "s2", partners: ["cy"] },
          ],
        }),
        r.run,
      );
      assert.equal(
        r.issued[0]!.sql,
        "UPDATE sessions SET partners = coalesce(?, partners), meta = coalesce(?, meta) WHERE tenant = ? AND agent = ? AND id = ?",
      );
      assert.deepEqual(
        r.issued.map((s) => s.params),
        [
          [null, '{"left":["bob"]}', "t1", "ada", "s1"],
          ['["cy"]', null, "t1", "ada", "s2"],
        ],
      );
    });

    test("an update of a missing session refuses the batch", () => {
      const r = recorder(() => ({ changes: 0 }));
      assert.throws(
        () =>
          runSync(writeBatch(sqliteDialect, scope, { sessionUpdates: [{ id: "s9", partners: [] }] }), r.run),
        (e: unknown) => e instanceof ConflictError && e.details.session === "s9",
      );
    });

    test("a status change never touches a consolidated session", () => {
      const r = recorder();
      runSync(writeBatch(sqliteDialect, scope, { sessionStatus: [{ id: "s1", status: "closed" }] }), r.run);
      assert.equal(r.issued.length, 1);
      assert.equal(
        r.issued[0]!.sql,
        "UPDATE sessions SET status = ? WHERE tenant = ? AND agent = ? AND id = ? AND status <> 'consolidated'",
      );
      assert.deepEqual(r.issued[0]!.params, ["closed", "t1", "ada", "s1"]);
    });

    const refusals = [
      { stored: [{ one: 1 }], reason: "already-consolidated" },
      { stored: [], reason: "no-session" },
    ];
    for (const { stored, reason } of refusals)
      test(`a status change that touches nothing looks the session up and is refused as ${reason}`, () => {
        const r = recorder((s) => (s.sql.startsWith("SELECT") ? { rows: stored } : { changes: 0 }));
        assert.throws(
          () =>
            runSync(
              writeBatch(sqliteDialect, scope, {
                sessionStatus: [{ id: "s1", status: "consolidated" }],
                memories: [memory("m1")],
              }),
              r.run,
            ),
          (e: unknown) =>
            e instanceof ConflictError && e.details.reason === reason && e.details.session === "s1",
        );
        // The memories of a second consolidation are never issued.
        assert.deepEqual(r.issued.map(shape), ["UPDATE sessions", "SELECT sessions"]);
        assert.deepEqual(r.issued[1]!.params, ["t1", "ada", "s1"]);
      });
  });

  describe("supersede", () => {
    test("retires only an active memory, stamping when", () => {
      const r = recorder();
      runSync(writeBatch(sqliteDialect, scope, { supersede: [{ oldId: "m1", byId: null, at: "T" }] }), r.run);
      assert.equal(r.issued.length, 1, "no edge without a successor");
      assert.equal(
        r.issued[0]!.sql,
        "UPDATE memories SET status = 'superseded', invalid_at = ? WHERE tenant = ? AND agent = ? AND id = ? AND status = 'active'",
      );
      assert.deepEqual(r.issued[0]!.params, ["T", "t1", "ada", "m1"]);
    });

    const edges = [
      {
        edge: undefined,
        reason: undefined,
        row: ["t1", "ada", "edge_new_old", "new", "old", "Supersedes", "{}"],
      },
      {
        edge: "Supersedes" as const,
        reason: "moved",
        row: ["t1", "ada", "edge_new_old", "new", "old", "Supersedes", '{"reason":"moved"}'],
      },
      {
        edge: "FusedInto" as const,
        reason: undefined,
        row: ["t1", "ada", "edge_old_new", "old", "new", "FusedInto", "{}"],
      },
    ];
    for (const { edge, reason, row } of edges)
      test(`a ${edge ?? "default"} supersession${reason ? " with a reason" : ""} writes its edge the right way round`, () => {
        const r = recorder();
        runSync(
          writeBatch(sqliteDialect, scope, {
            supersede: [{ oldId: "old", byId: "new", at: "T", edge, reason }],
          }),
          r.run,
        );
        assert.deepEqual(r.issued.map(shape), ["UPDATE memories", "INSERT edges"]);
        // The last column is the write's own time.
        assert.deepEqual(r.issued[1]!.params.slice(0, -1), row);
      });

    test("a memory that is not active in the scope refuses the batch and no edge is written", () => {
      const r = recorder(() => ({ changes: 0 }));
      assert.throws(
        () =>
          runSync(
            writeBatch(sqliteDialect, scope, { supersede: [{ oldId: "m1", byId: "m2", at: "T" }] }),
            r.run,
          ),
        (e: unknown) => e instanceof ConflictError && e.details.memory === "m1",
      );
      assert.deepEqual(r.issued.map(shape), ["UPDATE memories"]);
    });
  });

  test("an edge from a memory to itself is refused as invalid input before any edge is inserted", () => {
    const r = recorder();
    const loop = { ...full.edges![0]!, from: "m1", to: "m1" };
    assert.throws(
      () => runSync(writeBatch(sqliteDialect, scope, { edges: [loop] }), r.run),
      InvalidInputError,
    );
    assert.deepEqual(r.issued, []);
  });

  test("a stored edge keeps its own recordedAt, and the scope's tenant replaces none of its ends", () => {
    const r = recorder();
    runSync(writeBatch(sqliteDialect, scope, { edges: full.edges }), r.run);
    assert.deepEqual(r.issued[0]!.params, [
      "t1",
      "ada",
      "e1",
      "m2",
      "m3",
      "Cause",
      "{}",
      "2024-01-01T00:00:00.000Z",
    ]);
  });

  describe("embeddings", () => {
    test("a vector already stored is kept (SQLite: INSERT OR IGNORE), its bytes are the float32s", () => {
      const r = recorder();
      runSync(writeBatch(sqliteDialect, scope, { embeddings: full.embeddings }), r.run);
      assert.match(
        r.issued[0]!.sql,
        /^INSERT OR IGNORE INTO embeddings \(tenant, agent, owner_kind, owner_id, model, dims, vector\)/,
      );
      const [tenant, agent, kind, owner, model, dims, blob] = r.issued[0]!.params;
      assert.deepEqual([tenant, agent, kind, owner, model, dims], ["t1", "ada", "memory", "m2", "hash", 2]);
      assert.ok(Buffer.isBuffer(blob));
      assert.deepEqual([...new Float32Array(new Uint8Array(blob as Buffer).buffer)], [1, 2]);
    });

    test("on Postgres a stored vector is kept with ON CONFLICT DO NOTHING, and extra columns join the insert", () => {
      const r = recorder();
      runSync(
        writeBatch(
          postgresDialect,
          scope,
          { embeddings: full.embeddings },
          { embeddingColumns: [["embedding", "vector", (x) => `[${[...x.vector].join(",")}]`]] },
        ),
        r.run,
      );
      const [insert] = r.issued;
      assert.match(insert!.sql, / ON CONFLICT DO NOTHING$/);
      // A vector column travels as text and is cast once unnested.
      assert.match(
        insert!.sql,
        /SELECT tenant, agent, owner_kind, owner_id, model, dims, vector, embedding::vector FROM/,
      );
      assert.match(insert!.sql, /\?::bytea\[\], \?::text\[\]\)/);
      assert.deepEqual(insert!.params.at(-1), ["[1,2]"]);
    });

    test("an error inserting a vector is not turned into a conflict", () => {
      const failure = Object.assign(new Error("disk"), { code: "SQLITE_CONSTRAINT_UNIQUE" });
      const r = recorder(() => failure);
      assert.throws(
        () => runSync(writeBatch(sqliteDialect, scope, { embeddings: full.embeddings }), r.run),
        (e: unknown) => e === failure,
      );
    });
  });

  describe("constraint errors", () => {
    const cases = [
      { name: "SQLite", d: sqliteDialect, code: "SQLITE_CONSTRAINT_PRIMARYKEY", conflict: true },
      { name: "SQLite", d: sqliteDialect, code: "SQLITE_BUSY", conflict: false },
      { name: "Postgres", d: postgresDialect, code: "23505", conflict: true },
      { name: "Postgres", d: postgresDialect, code: "23503", conflict: true },
      { name: "Postgres", d: postgresDialect, code: "40001", conflict: false },
    ];
    for (const { name, d, code, conflict } of cases)
      test(`${name} error ${code} on a turn insert ${conflict ? "becomes a ConflictError naming the turns" : "passes unchanged"}, and nothing after it is issued`, () => {
        const failure = Object.assign(new Error("driver says no"), { code });
        const r = recorder((s) => (s.sql.includes("INTO turns") ? failure : undefined));
        assert.throws(
          () => runSync(writeBatch(d, scope, { turns: [turn("u1", 0)], memories: [memory("m1")] }), r.run),
          (e: unknown) =>
            conflict
              ? e instanceof ConflictError &&
                e.message === "A turn of this batch already exists or its session is missing" &&
                JSON.stringify(e.details) === '{"turns":["u1"]}'
              : e === failure,
        );
        assert.deepEqual(r.issued.map(shape), ["INSERT turns"]);
      });
  });

  describe("operations", () => {
    test("refs are deduplicated per operation; SQLite keeps the scope on the operation, Postgres on each ref", () => {
      const batch: WriteBatch = {
        operations: [operation("o1", ["m1", "m2", "m1"]), operation("o2", ["m1"])],
      };
      const lite = recorder();
      runSync(writeBatch(sqliteDialect, scope, batch), lite.run);
      const refs = lite.issued.filter((s) => s.sql.includes("operation_refs"));
      assert.equal(refs[0]!.sql, "INSERT OR IGNORE INTO operation_refs (op_id, memory_id) VALUES (?,?)");
      assert.deepEqual(
        refs.map((s) => s.params),
        [
          ["o1", "m1"],
          ["o1", "m2"],
          ["o2", "m1"],
        ],
      );
      const pg = recorder();
      runSync(writeBatch(postgresDialect, scope, batch), pg.run);
      const [pgRefs] = pg.issued.filter((s) => s.sql.includes("operation_refs"));
      assert.deepEqual(pgRefs!.params, [
        ["t1", "t1", "t1"],
        ["ada", "ada", "ada"],
        ["o1", "o1", "o2"],
        ["m1", "m2", "m1"],
      ]);
      assert.match(pgRefs!.sql, /ON CONFLICT DO NOTHING$/);
    });

    test("an operation's row carries its usage and undefined outputs as JSON null", () => {
      const r = recorder();
      runSync(writeBatch(sqliteDialect, scope, { operations: [operation("o1", [])] }), r.run);
      assert.equal(r.issued.length, 1, "no refs for an operation that touched no memory");
      assert.deepEqual(r.issued[0]!.params, [
        "t1",
        "ada",
        "o1",
        "NEW",
        "done",
        "emma",
        "m",
        "s1",
        '{"in":1}',
        "null",
        null,
        null,
        1,
        2,
        3,
        4.5,
        "2024-01-01T00:00:00.000Z",
        "2024-01-01T00:00:03.000Z",
      ]);
    });

    test("a later outcome sets status and error, and outputs and usage only when given", () => {
      const r = recorder();
      runSync(
        writeBatch(sqliteDialect, scope, {
          operationStatus: [
            { id: "o1", status: "done" },
            {
              id: "o2",
              status: "done",
              outputs: { x: 1 },
              usage: { calls: 2, promptTokens: 0, completionTokens: 5, latencyMs: 7 },
            },
            { id: "o3", status: "failed", error: "late", outputs: null },
          ],
        }),
        r.run,
      );
      assert.deepEqual(
        r.issued.map((s) => s.params),
        [
          ["done", null, "t1", "ada", "o1"],
          ["done", null, "t1", "ada", "o2"],
          ['{"x":1}', 2, 0, 5, 7, "t1", "ada", "o2"],
          ["failed", "late", "t1", "ada", "o3"],
          // outputs: null is given, so usage is zeroed with it.
          ["null", 0, 0, 0, 0, "t1", "ada", "o3"],
        ],
      );
      assert.equal(
        r.issued[2]!.sql,
        "UPDATE operations SET outputs = ?, calls = ?, prompt_tokens = ?, completion_tokens = ?, latency_ms = ? WHERE tenant = ? AND agent = ? AND id = ?",
      );
    });

    test("a later outcome for an unknown operation refuses the batch", () => {
      const r = recorder(() => ({ changes: 0 }));
      assert.throws(
        () =>
          runSync(
            writeBatch(sqliteDialect, scope, { operationStatus: [{ id: "o9", status: "done" }] }),
            r.run,
          ),
        (e: unknown) => e instanceof ConflictError && e.details.operation === "o9",
      );
    });
  });

  test("run through the Postgres runner, placeholders are numbered and rowCount is the change count", async () => {
    const queries: [string, unknown[] | undefined][] = [];
    const tx = {
      async query<R>(sql: string, params?: unknown[]) {
        queries.push([sql, params]);
        return { rows: (sql.startsWith("SELECT") ? [{ n: 1 }] : []) as R[], rowCount: 1 };
      },
    };
    await runAsync(
      writeBatch(postgresDialect, scope, {
        requireTurns: ["u1"],
        supersede: [{ oldId: "m1", byId: null, at: "T" }],
      }),
      postgresRunner(tx),
    );
    assert.deepEqual(
      queries.map(([sql]) => sql),
      [
        "SELECT count(*) AS n FROM turns WHERE tenant = $1 AND agent = $2 AND id IN (SELECT unnest($3::text[]))",
        "UPDATE memories SET status = 'superseded', invalid_at = $1 WHERE tenant = $2 AND agent = $3 AND id = $4 AND status = 'active'",
      ],
    );
  });

  test("no statement of a full batch opens, ends or marks a transaction: the caller's transaction holds it all", () => {
    for (const [, d] of dialects) {
      const r = recorder((s) => (s.sql.startsWith("SELECT") ? { rows: [{ n: 1 }] } : undefined));
      runSync(writeBatch(d, scope, { ...full, requireTurns: ["u1"] }), r.run);
      for (const s of r.issued) assert.doesNotMatch(s.sql, /\b(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i);
    }
  });
});
