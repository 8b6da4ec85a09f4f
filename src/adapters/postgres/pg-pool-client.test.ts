/**
 * holdConnection (src/adapters/postgres/pg-pool-client.ts) over a stand-in pool: a connection's
 * 'error' event never goes unheard, before or after its release, since an unheard one ends the
 * process.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import type pg from "pg";
import { guardClients, holdConnection } from "./pg-pool-client.js";

/** A pool handing out one client that records how it was released. */
function standInPool() {
  const client = Object.assign(new EventEmitter(), {
    released: [] as (Error | undefined)[],
    release(error?: Error) {
      client.released.push(error);
    },
  });
  const pool = { connect: async () => client } as unknown as pg.Pool;
  return { pool, client };
}

describe("held connections", () => {
  it("records a loss while held, tells it once, and closes the lost connection on release", async () => {
    const { pool, client } = standInPool();
    const told: string[] = [];
    const held = await holdConnection(pool, (e) => told.push(e.message));
    client.emit("error", new Error("terminating connection"));
    client.emit("error", new Error("terminating connection, again"));
    assert.deepEqual(told, ["terminating connection"]);
    assert.equal(held.lost?.message, "terminating connection");
    held.release();
    assert.equal(client.released[0]?.message, "terminating connection", "a lost connection is closed");
  });

  it("a connection closed as broken still hears the server's goodbye after its release, and ignores it", async () => {
    const { pool, client } = standInPool();
    const told: string[] = [];
    const held = await holdConnection(pool, (e) => told.push(e.message));
    held.release(new Error("statement failed"));
    // With no listener this emit would throw: an unhandled 'error' event ends the process.
    assert.doesNotThrow(() => client.emit("error", new Error("terminating connection")));
    assert.deepEqual(told, [], "a released connection's loss is no one's to take up");
    assert.equal(held.lost, undefined);
  });

  it("a guarded pool's new connection is never without a listener, even before its taker listens", () => {
    const pool = guardClients(new EventEmitter() as unknown as pg.Pool) as unknown as EventEmitter;
    const client = new EventEmitter();
    // pg's pool says 'connect' for a new connection before it takes its own idle listener off.
    pool.emit("connect", client);
    assert.doesNotThrow(() => client.emit("error", new Error("terminating connection")));
    assert.equal(client.listenerCount("error"), 1);
  });

  it("a sound connection goes back to the pool without its listener", async () => {
    const { pool, client } = standInPool();
    const held = await holdConnection(pool);
    assert.equal(client.listenerCount("error"), 1);
    held.release();
    held.release();
    assert.equal(client.listenerCount("error"), 0, "the pool listens to its idle connections itself");
    assert.deepEqual(client.released, [undefined], "released once");
  });
});
