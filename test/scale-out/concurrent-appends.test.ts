/**
 * One session appended to by many clients through two replicas at once: two
 * engines over one database, as two `serve --no-worker` processes would be. Every turn is stored,
 * at its own place, with the ordinary id (`<session>:<n>`), and none is refused. On Postgres the
 * session is held against the other replica while a turn is placed; on a shared SQLite file
 * (no hold) a collision is tried again at the next place.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { silentLogger } from "../../src/engine/logger.js";
import type { Memlane } from "../../src/engine/memlane.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";

const skip = postgresSkipReason() ?? false;
const CLIENTS = 20;
const TURNS = 6;

describe("concurrent appends to one session through two replicas", { skip }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });

  it("on Postgres (sessions held across processes): every turn once, in one order, with ordinary ids", async () => {
    await appendTogether(await cluster.createDatabase());
  });
});

describe("concurrent appends to one session through two engines on one SQLite file", () => {
  it("no hold: collisions are tried again at the next place; every turn once, ordinary ids", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-appends-"));
    try {
      await appendTogether(join(dir, "shared.db"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Two engines over one store; CLIENTS clients each append TURNS turns to one session, alternating engines. */
async function appendTogether(store: string): Promise<void> {
  const replicas: Memlane[] = [];
  for (let i = 0; i < 2; i++)
    replicas.push(
      await openMemlane({
        store,
        embedder: "hash",
        strategy: "carecall",
        tenant: "acme",
        logger: silentLogger,
      }),
    );
  try {
    const opened = await replicas[0]!.session({
      agent: "ava",
      partner: "sam",
      id: "c1",
      at: "2024-03-02T18:00",
    });
    const refused: string[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let t = 0; t < TURNS; t++) {
          const replica = replicas[(c + t) % 2]!;
          const session = await replica.resume("ava", "c1");
          await session.turn("sam", `client ${c} says thing ${t}`).catch((error: Error) => {
            refused.push(error.message);
          });
        }
      }),
    );
    assert.deepEqual(refused, [], "no turn was refused");
    const turns = await opened.turns();
    assert.equal(turns.length, CLIENTS * TURNS);
    assert.deepEqual(
      turns.map((t) => t.index),
      turns.map((_, i) => i),
      "indexes 0…n-1, each once",
    );
    assert.deepEqual(
      turns.map((t) => t.id),
      turns.map((_, i) => `c1:${i + 1}`),
      "ordinary ids",
    );
    assert.equal(new Set(turns.map((t) => t.text)).size, CLIENTS * TURNS, "every turn once");
  } finally {
    for (const r of replicas) await r.close();
  }
}
