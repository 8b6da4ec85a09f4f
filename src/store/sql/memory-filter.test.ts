/**
 * A MemoryFilter as a WHERE clause, for both dialects: each field adds its condition and its
 * parameter in order, status defaults to active, and a hearing says in SQL what
 * core/audience.ts's hearingTest says in code.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { postgresDialect } from "../../adapters/postgres/dialect.js";
import type { MemoryFilter } from "../../core/types.js";
import { sqliteDialect } from "../sqlite/dialect.js";
import { memoryWhere } from "./memory-filter.js";

const scope = { tenant: "t1", agent: "ada" };
const JE = "IN (SELECT value FROM json_each(?))";

describe("memoryWhere on SQLite", () => {
  const cases: { name: string; filter: MemoryFilter | undefined; sql: string; params: unknown[] }[] = [
    {
      name: "no filter admits the scope's active memories (one value is a plain equality, for the index)",
      filter: undefined,
      sql: "tenant = ? AND agent = ? AND status = ?",
      params: ["t1", "ada", "active"],
    },
    {
      name: 'status "any" drops the status condition',
      filter: { status: "any" },
      sql: "tenant = ? AND agent = ?",
      params: ["t1", "ada"],
    },
    {
      name: "one status or several are one list",
      filter: { status: ["active", "superseded"] },
      sql: `tenant = ? AND agent = ? AND status ${JE}`,
      params: ["t1", "ada", '["active","superseded"]'],
    },
    {
      name: "about, kind, strategy and session come in that order after status",
      filter: {
        about: "bob",
        kind: ["fact", "plan"],
        strategy: "emma",
        sessionId: "s1",
        status: "superseded",
      },
      sql: `tenant = ? AND agent = ? AND +status = ? AND about = ? AND kind ${JE} AND strategy = ? AND session_id = ?`,
      params: ["t1", "ada", "superseded", "bob", '["fact","plan"]', "emma", "s1"],
    },
    {
      name: "asked for by id, the scope columns are kept out of the index (+column)",
      filter: { ids: ["m1", "m2"], status: "any" },
      sql: `+tenant = ? AND +agent = ? AND id ${JE}`,
      params: ["t1", "ada", '["m1","m2"]'],
    },
    {
      name: "an empty id list still filters (admits nothing), it is not dropped",
      filter: { ids: [], status: "any" },
      sql: `+tenant = ? AND +agent = ? AND id ${JE}`,
      params: ["t1", "ada", "[]"],
    },
    {
      name: "dates bound when a memory was learned and when it was current",
      filter: {
        status: "any",
        observedAfter: "2024-01-01T00:00:00.000Z",
        observedBefore: "2024-02-01T00:00:00.000Z",
        validAfter: "2024-01-10T00:00:00.000Z",
        validBefore: "2024-01-20T00:00:00.000Z",
      },
      sql: "tenant = ? AND agent = ? AND observed_at >= ? AND observed_at < ? AND (invalid_at IS NULL OR invalid_at > ?) AND observed_at <= ?",
      params: [
        "t1",
        "ada",
        "2024-01-01T00:00:00.000Z",
        "2024-02-01T00:00:00.000Z",
        "2024-01-10T00:00:00.000Z",
        "2024-01-20T00:00:00.000Z",
      ],
    },
    {
      name: "a meta field reads the text of its scalar under attributes.meta, its path a parameter",
      filter: { status: "any", meta: { topic: { in: ["work", 2] } } },
      sql: `tenant = ? AND agent = ? AND (CASE json_type(attributes, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'text' THEN json_extract(attributes, ?) WHEN 'integer' THEN CAST(json_extract(attributes, ?) AS TEXT) WHEN 'real' THEN CAST(json_extract(attributes, ?) AS TEXT) END) ${JE}`,
      params: [
        "t1",
        "ada",
        '$."meta"."topic"',
        '$."meta"."topic"',
        '$."meta"."topic"',
        '$."meta"."topic"',
        '["work","2"]',
      ],
    },
    {
      name: "an agent-scope hearing admits a private memory only for those it stays with",
      filter: { status: "any", hearing: { scope: "agent", partners: ["bob"] } },
      sql: "tenant = ? AND agent = ? AND (json_extract(attributes, '$.privateTo') IS NULL OR EXISTS (SELECT 1 FROM json_each(attributes, '$.privateTo') WHERE value IN (SELECT value FROM json_each(?))))",
      params: ["t1", "ada", '["bob"]'],
    },
    {
      name: "a partner-scope hearing also asks that a present partner heard it, or, with no audience, that it is about one",
      filter: { status: "any", hearing: { scope: "partner", partners: ["bob", "cy"] } },
      sql: "tenant = ? AND agent = ? AND (json_extract(attributes, '$.privateTo') IS NULL OR EXISTS (SELECT 1 FROM json_each(attributes, '$.privateTo') WHERE value IN (SELECT value FROM json_each(?)))) AND (EXISTS (SELECT 1 FROM json_each(attributes, '$.audience') WHERE value IN (SELECT value FROM json_each(?))) OR (json_extract(attributes, '$.audience') IS NULL AND about IN (SELECT value FROM json_each(?))))",
      params: ["t1", "ada", '["bob","cy"]', '["bob","cy"]', '["bob","cy"]'],
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      assert.deepEqual(memoryWhere(sqliteDialect, scope, c.filter), { sql: c.sql, params: c.params });
    });

  test("an alias prefixes every column, inside the JSON tests too", () => {
    const { sql } = memoryWhere(
      sqliteDialect,
      scope,
      {
        ids: ["m1"],
        about: "bob",
        strategy: "x",
        sessionId: "s",
        hearing: { scope: "partner", partners: ["bob"] },
      },
      "m.",
    );
    assert.equal(
      sql.match(/(?<![.\w])(tenant|agent|status|about|id|strategy|session_id|attributes)\b/g),
      null,
    );
    assert.match(sql, /^\+m\.tenant = \? AND \+m\.agent = \?/);
    assert.match(sql, /json_each\(m\.attributes, '\$\.audience'\)/);
  });

  test("the number of placeholders always matches the parameters", () => {
    for (const c of cases) {
      const { sql, params } = memoryWhere(sqliteDialect, scope, c.filter);
      assert.equal(sql.split("?").length - 1, params.length, c.name);
    }
  });
});

describe("memoryWhere on Postgres", () => {
  test("lists travel as arrays tested with = ANY, and the scope columns are never hinted", () => {
    assert.deepEqual(memoryWhere(postgresDialect, scope, { ids: ["m1"], about: ["bob", "cy"] }), {
      sql: "tenant = ? AND agent = ? AND status = ? AND about = ANY(?::text[]) AND id = ?",
      params: ["t1", "ada", "active", ["bob", "cy"], "m1"],
    });
  });

  test("a meta field is the text of a jsonb scalar at a path given as a parameter", () => {
    assert.deepEqual(memoryWhere(postgresDialect, scope, { status: "any", meta: { topic: "work" } }), {
      sql: "tenant = ? AND agent = ? AND (CASE WHEN jsonb_typeof(attributes::jsonb #> ?::text[]) IN ('string', 'number', 'boolean') THEN attributes::jsonb #>> ?::text[] END) = ANY(?::text[])",
      params: ["t1", "ada", ["meta", "topic"], ["meta", "topic"], ["work"]],
    });
  });

  test("a meta field that is not a plain word is refused before any SQL is made", () => {
    assert.throws(
      () => memoryWhere(postgresDialect, scope, { meta: { "a') OR 1=1 --": "x" } }),
      (e: Error & { code?: string; details?: { field?: string } }) =>
        e.code === "INVALID_INPUT" && e.details?.field === "meta.a') OR 1=1 --",
    );
  });

  test("a hearing reads the JSON attributes as jsonb", () => {
    const { sql, params } = memoryWhere(postgresDialect, scope, {
      status: "any",
      hearing: { scope: "partner", partners: ["bob"] },
    });
    assert.equal(
      sql,
      "tenant = ? AND agent = ? AND ((attributes::jsonb ->> 'privateTo') IS NULL OR COALESCE(jsonb_exists_any(attributes::jsonb -> 'privateTo', ?::text[]), false)) AND (COALESCE(jsonb_exists_any(attributes::jsonb -> 'audience', ?::text[]), false) OR ((attributes::jsonb ->> 'audience') IS NULL AND about = ANY(?::text[])))",
    );
    assert.deepEqual(params, ["t1", "ada", ["bob"], ["bob"], ["bob"]]);
  });
});
