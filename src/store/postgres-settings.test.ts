/**
 * The connection budget's split (src/store/postgres-settings.ts): the default lets two API
 * replicas and two workers run under Postgres's default max_connections (100, 97 for
 * non-superusers), and a budget too small for the queue is refused.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isMemlaneError } from "../core/errors.js";
import { POSTGRES_DEFAULTS, postgresSettings, splitConnections } from "./postgres-settings.js";

const total = (s: ReturnType<typeof splitConnections>) => s.store + s.sessionLocks + s.queue + s.queueLocks;

describe("the Postgres connection budget", () => {
  it("splits the default 20 so that two replicas and two workers open at most 80", () => {
    const replica = splitConnections(POSTGRES_DEFAULTS.maxConnections, { work: false, concurrency: 2 });
    const worker = splitConnections(POSTGRES_DEFAULTS.maxConnections, { work: true, concurrency: 1 });
    assert.deepEqual(replica, { store: 11, sessionLocks: 5, queue: 3, queueLocks: 1 });
    assert.deepEqual(worker, { store: 11, sessionLocks: 5, queue: 3, queueLocks: 1 });
    assert.ok(
      2 * total(replica) + 2 * total(worker) <= 97 - 10,
      "room left for migrate, keys and an operator",
    );
  });

  it("gives a worker's jobs their scope locks first, and refuses a budget that leaves the store too little", () => {
    assert.deepEqual(splitConnections(20, { work: true, concurrency: 8 }), {
      store: 6,
      sessionLocks: 3,
      queue: 3,
      queueLocks: 8,
    });
    assert.deepEqual(splitConnections(5), { store: 4, sessionLocks: 1, queue: 0, queueLocks: 0 });
    assert.throws(
      () => splitConnections(10, { work: true, concurrency: 8 }),
      (e) => isMemlaneError(e) && e.code === "INVALID_INPUT" && /at least 13/.test(e.message),
    );
  });

  it("fills in the defaults and refuses what is not a whole number", () => {
    assert.deepEqual(postgresSettings(), {
      statementTimeoutMs: 30_000,
      lockTimeoutMs: 5_000,
      maxConnections: 20,
    });
    assert.equal(postgresSettings({ lockTimeoutMs: 0 }).lockTimeoutMs, 0);
    assert.throws(() => postgresSettings({ statementTimeoutMs: -1 }), /statementTimeoutMs/);
    assert.throws(() => postgresSettings({ maxConnections: 2 }), /maxConnections/);
  });
});
