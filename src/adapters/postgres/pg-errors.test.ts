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

  it("passes every other error through unchanged", () => {
    for (const error of [
      pgError('relation "x" does not exist', "42P01"),
      pgError("division by zero", "22012"),
    ])
      assert.equal(storeError(error, "db"), error);
  });
});
