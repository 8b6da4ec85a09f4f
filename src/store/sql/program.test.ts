/**
 * The program runners: a program is a generator of statements, and the two runners (synchronous
 * for SQLite, asynchronous for Postgres) must feed it results and errors the same way, since
 * every store operation is written once against them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  change,
  numberedPlaceholders,
  PAUSE,
  runAsync,
  runSync,
  type SqlProgram,
  type SqlStatement,
  type StatementResult,
  select,
} from "./program.js";

/** Reads two rows, changes as many as it read, and turns a failure of the change into a value. */
function* sample(): SqlProgram<string> {
  const rows = yield* select("SELECT a FROM t WHERE x = ?", 1);
  try {
    const n = yield* change("UPDATE t SET a = ? WHERE x IN (?, ?)", "v", ...rows.map((r) => r.a));
    return `changed ${n}`;
  } catch (error) {
    return `caught ${(error as Error).message}`;
  }
}

const answers = (s: SqlStatement): StatementResult =>
  s.sql.startsWith("SELECT") ? { rows: [{ a: "p" }, { a: "q" }], changes: 0 } : { rows: [], changes: 2 };

describe("program runners", () => {
  test("runSync feeds each statement's result back and returns the program's value", () => {
    const seen: SqlStatement[] = [];
    const value = runSync(sample(), (s) => {
      seen.push(s);
      return answers(s);
    });
    assert.equal(value, "changed 2");
    assert.deepEqual(seen, [
      { sql: "SELECT a FROM t WHERE x = ?", params: [1] },
      { sql: "UPDATE t SET a = ? WHERE x IN (?, ?)", params: ["v", "p", "q"] },
    ]);
  });

  test("runAsync gives the same statements and value", async () => {
    const seen: SqlStatement[] = [];
    const value = await runAsync(sample(), async (s) => {
      seen.push(s);
      return answers(s);
    });
    assert.equal(value, "changed 2");
    assert.equal(seen.length, 2);
    assert.deepEqual(seen[1]!.params, ["v", "p", "q"]);
  });

  test("a statement's error is thrown into the program at its yield, where it may catch it (sync and async)", async () => {
    const failing = (s: SqlStatement) => {
      if (s.sql.startsWith("UPDATE")) throw new Error("locked");
      return answers(s);
    };
    assert.equal(runSync(sample(), failing), "caught locked");
    assert.equal(await runAsync(sample(), async (s) => failing(s)), "caught locked");
  });

  test("an error the program does not catch leaves the runner unchanged", async () => {
    function* bare(): SqlProgram<number> {
      return yield* change("DELETE FROM t");
    }
    const error = new Error("gone");
    assert.throws(
      () =>
        runSync(bare(), () => {
          throw error;
        }),
      (e: unknown) => e === error,
    );
    await assert.rejects(
      runAsync(bare(), async () => {
        throw error;
      }),
      (e: unknown) => e === error,
    );
  });

  test("a program that yields nothing returns without calling the runner", async () => {
    // biome-ignore lint/correctness/useYield: a program with no statement is a valid program
    function* none(): SqlProgram<string> {
      return "done";
    }
    const run = () => assert.fail("no statement expected");
    assert.equal(runSync(none(), run), "done");
    assert.equal(await runAsync(none(), run), "done");
  });

  test("a pause is no statement: runSync goes straight on, runAsync lets the event loop run once a slice is spent", async () => {
    /** Spins 5 ms per row over 40 rows, pausing after each, then reads once. */
    function* long(): SqlProgram<number> {
      for (let i = 0; i < 40; i++) {
        const until = performance.now() + 5;
        while (performance.now() < until);
        yield PAUSE;
      }
      return (yield* select("SELECT 1")).length;
    }
    const seen: SqlStatement[] = [];
    assert.equal(
      runSync(long(), (s) => {
        seen.push(s);
        return answers(s);
      }),
      2,
    );
    assert.deepEqual(seen, [{ sql: "SELECT 1", params: [] }]);
    // 200 ms of work: the loop must get turns while it runs, about one per slice. Counting the
    // turns, not timing the longest stall, holds on a loaded machine; a runner that never gives
    // the loop back lets the timer fire at most once, after the final read.
    let turns = 0;
    const timer = setInterval(() => {
      turns++;
    }, 1);
    try {
      assert.equal(await runAsync(long(), async (s) => answers(s)), 2);
    } finally {
      clearInterval(timer);
    }
    assert.ok(turns >= 5, `the loop ran ${turns} times in 200 ms of work`);
  });

  test("select returns the rows and change the count, ignoring the other half of the result", () => {
    const both = () => ({ rows: [{ n: 1 }], changes: 7 });
    assert.deepEqual(runSync(select("SELECT 1"), both), [{ n: 1 }]);
    assert.equal(runSync(change("DELETE FROM t"), both), 7);
  });

  const placeholders: [string, string][] = [
    ["SELECT 1", "SELECT 1"],
    ["a = ?", "a = $1"],
    [
      "a = ? AND b IN (SELECT unnest(?::text[])) AND c = ?",
      "a = $1 AND b IN (SELECT unnest($2::text[])) AND c = $3",
    ],
    ["??", "$1$2"],
  ];
  for (const [sql, numbered] of placeholders)
    test(`numberedPlaceholders numbers "${sql}" left to right`, () => {
      assert.equal(numberedPlaceholders(sql), numbered);
    });
});
