import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isMemlaneError } from "../../core/errors.js";
import { storeError } from "./pg-errors.js";

const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe("Postgres errors as memlane's", () => {
  it("reads a database that cannot be reached or used as STORE_UNAVAILABLE, whatever the driver says", () => {
    for (const error of [
      pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      pgError("terminating connection due to administrator command", "57P01"),
      pgError("sorry, too many clients already", "53300"),
      pgError("Connection terminated unexpectedly"),
      pgError("Client has encountered a connection error and is not queryable"),
      pgError("Client was closed and is not queryable"),
      pgError("Cannot use a pool after calling end on the pool"),
    ]) {
      const mapped = storeError(error, "db");
      assert.ok(isMemlaneError(mapped), error.message);
      assert.equal(mapped.code, "STORE_UNAVAILABLE");
      assert.equal((mapped as Error & { cause?: unknown }).cause, error);
    }
  });

  it("reads a lock or statement timeout as STORE_UNAVAILABLE, saying which", () => {
    const lock = storeError(pgError("canceling statement due to lock timeout", "55P03"), "db");
    assert.ok(isMemlaneError(lock));
    assert.equal(lock.code, "STORE_UNAVAILABLE");
    assert.equal(lock.details.reason, "lock-timeout");
    assert.match(lock.message, /lock held elsewhere/);
    const slow = storeError(pgError("canceling statement due to statement timeout", "57014"), "db");
    assert.ok(isMemlaneError(slow));
    assert.equal(slow.details.reason, "statement-timeout");
  });

  it("passes every other error through unchanged", () => {
    for (const error of [
      pgError('relation "x" does not exist', "42P01"),
      pgError("division by zero", "22012"),
    ])
      assert.equal(storeError(error, "db"), error);
  });
});
