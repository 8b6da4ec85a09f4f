import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { InvalidInputError, NotFoundError, StoreUnavailableError } from "../../core/errors.js";
import type { Memory, Scope, Session, Turn } from "../../core/types.js";
import { memory, operation, session, turn } from "../../testing/rows.js";
import type { EmbeddingRecord, ForgetReport } from "../memory-store.js";
import { forgetInWorker } from "./forget-worker.js";
import { SqliteStore } from "./sqlite-store.js";

const scope: Scope = { tenant: "t1", agent: "ava" };
const WORDS =
  "river garden beagle lantern violin harbour cactus marble pepper saddle tunnel meadow anchor biscuit walnut ribbon".split(
    " ",
  );

/** Ten words a turn, varied enough that the redaction passes find nothing by accident. */
function sentence(i: number): string {
  const out: string[] = [];
  let x = i * 2654435761;
  for (let w = 0; w < 10; w++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]!);
  }
  return `I saw the ${out.join(" ")} number ${i}.`;
}

/**
 * `size` turns in sessions of 20, every other one Sam's, each with a memory made from it and a
 * vector for both, by direct writes (as the live bench fills a scope).
 */
async function fill(store: SqliteStore, size: number): Promise<void> {
  for (let start = 0; start < size; start += 2000) {
    const sessions: Session[] = [];
    const turns: Turn[] = [];
    const memories: Memory[] = [];
    const embeddings: EmbeddingRecord[] = [];
    for (let i = start; i < Math.min(size, start + 2000); i++) {
      const id = `s${Math.floor(i / 20)}`;
      if (i % 20 === 0) sessions.push(session(scope, id));
      const t = turn(scope, id, i % 20, i % 2 ? "sam" : "ava", sentence(i));
      turns.push(t);
      const m = memory(scope, `Sam said ${t.text}`, { sessionId: id, sourceTurns: [t.id] });
      memories.push(m);
      const vector = Float32Array.from({ length: 64 }, (_, k) => Math.sin(i + k));
      embeddings.push({ ownerKind: "turn", ownerId: t.id, model: "x", vector });
      embeddings.push({ ownerKind: "memory", ownerId: m.id, model: "x", vector });
    }
    await store.write(scope, { sessions, turns, memories, embeddings });
  }
}

/** Runs `work` while a 10 ms timer ticks: the longest delay past its due time is the loop's longest stall. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stall: number }> {
  let stall = 0;
  let due = performance.now() + 10;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - due);
    due = now + 10;
  }, 10);
  try {
    const value = await work();
    return { value, stall: Math.max(stall, performance.now() - due) };
  } finally {
    clearInterval(timer);
  }
}

const forgetRecord = (report: ForgetReport) =>
  operation(scope, { type: "FORGET", inputs: { about: true }, outputs: report });

describe("a SQLite forget on its own thread", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "memlane-forget-thread-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("forgets a 20,000-turn scope without holding the event loop; reads meanwhile see all of it or none of the forget; writes meanwhile land after it", async () => {
    const store = new SqliteStore(join(dir, "big.db"));
    try {
      await fill(store, 20_000);
      const stats = await store.stats(scope);
      assert.equal(stats.turns, 20_000);
      const [s7] = [await store.listTurns(scope, { sessionId: "s7" })];
      assert.equal(s7.length, 20);
      const version = Number(await store.changeVersion(scope));
      // The fill's garbage is collected now, not in the middle of the forget's measure.
      setFlagsFromString("--expose-gc");
      (runInNewContext("gc") as () => void)();

      // The serving thread keeps reading and writing while the forget runs.
      const seen = new Set<number>();
      let reading = true;
      const reads = (async () => {
        while (reading) {
          // One statement each: a whole session's turns, as they were or as the forget left them.
          const turns = await store.listTurns(scope, { sessionId: "s7" });
          seen.add(turns.length);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const order: string[] = [];
      let write: Promise<void> | undefined;
      const started = performance.now();
      const { value: report, stall } = await longestStall(async () => {
        const forgetting = store.forget(scope, { about: "sam", record: forgetRecord });
        forgetting.then(() => order.push("forget"));
        // Asked after the forget started: it waits for it, and is not erased by it.
        await new Promise((r) => setTimeout(r, 20));
        write = store
          .write(scope, {
            sessions: [session(scope, "later")],
            turns: [turn(scope, "later", 0, "sam", "Sam came back later.")],
          })
          .then(() => {
            order.push("write");
          });
        const report = await forgetting;
        await write;
        return report;
      });
      const took = performance.now() - started;
      reading = false;
      await reads;
      console.log(
        `  longest event-loop stall during the forget of 20,000 turns (${took.toFixed(0)} ms): ${stall.toFixed(1)} ms; a session read as ${[...seen].join(" then ")} turns`,
      );
      // Under 100 ms is the aim (20 ms here when the machine is quiet); the bound is generous for a
      // machine busy with other work, where timers run late whatever this process does. A forget
      // run on the serving thread would stall it for its whole length.
      assert.ok(
        stall < Math.max(250, took / 10),
        `the loop stalled ${stall.toFixed(1)} ms of ${took.toFixed(0)}`,
      );

      // Of each session's 20 turns, Sam's 10 and the 9 replies to him go; the opening stays.
      assert.equal(report.turns, 19_000);
      assert.equal(report.memories, 20_000);
      assert.deepEqual(order, ["forget", "write"]);
      // Reads saw the session whole or as the forget left it, never half of it.
      assert.ok(
        [...seen].every((n) => n === 20 || n === 1),
        `seen: ${[...seen]}`,
      );
      // The later turn is kept; the record is there; the version moved with both.
      const left = await store.listTurns(scope, { speaker: "sam" });
      assert.deepEqual(
        left.map((t) => t.text),
        ["Sam came back later."],
      );
      const ops = await store.listOperations(scope, { type: "FORGET" });
      assert.equal(ops.length, 1);
      assert.deepEqual(ops[0]!.outputs, report);
      assert.ok(Number(await store.changeVersion(scope)) >= version + 2);
    } finally {
      await store.close();
    }
  });

  it("writes the record with the erase, or nothing: a failing record leaves everything", async () => {
    const store = new SqliteStore(join(dir, "record.db"));
    try {
      await fill(store, 200);
      const stats = await store.stats(scope);
      const version = await store.changeVersion(scope);
      const boom = new Error("the record could not be made");
      await assert.rejects(
        store.forget(scope, {
          about: "sam",
          record: () => {
            throw boom;
          },
        }),
        (e) => e === boom,
      );
      assert.deepEqual(await store.stats(scope), stats);
      assert.equal(await store.changeVersion(scope), version);
      // A record that cannot be written (its id is taken) rolls the erase back too, as a CONFLICT.
      const taken = forgetRecord({
        memories: 0,
        edges: 0,
        operations: 0,
        embeddings: 0,
        turns: 0,
        sessions: 0,
        redacted: 0,
      });
      await store.write(scope, { operations: [taken] });
      const withOp = await store.stats(scope);
      await assert.rejects(
        store.forget(scope, { about: "sam", record: () => taken }),
        (e: Error & { code?: string }) => e.code === "CONFLICT",
      );
      assert.deepEqual(await store.stats(scope), withOp);
      // And a record that cannot cross the thread (a function inside) is refused the same way.
      await assert.rejects(
        store.forget(scope, {
          about: "sam",
          record: (r) => ({ ...forgetRecord(r), inputs: { f: () => 1 } }),
        }),
      );
      assert.deepEqual(await store.stats(scope), withOp);
      // A good one lands with the erase.
      const report = await store.forget(scope, { about: "sam", record: forgetRecord });
      assert.equal(report.turns, 190);
      assert.equal((await store.listOperations(scope, { type: "FORGET" })).length, 2);
    } finally {
      await store.close();
    }
  });

  it("throws the store's typed errors, and erases nothing", async () => {
    const store = new SqliteStore(join(dir, "errors.db"));
    try {
      await fill(store, 40);
      const stats = await store.stats(scope);
      await assert.rejects(store.forget(scope, { about: "nobody" }), (e) => {
        assert.ok(e instanceof NotFoundError);
        assert.equal(e.code, "NOT_FOUND");
        assert.equal(e.details.field, "about");
        assert.deepEqual(e.details.known, ["sam"]);
        return true;
      });
      await assert.rejects(store.forget(scope, {}), InvalidInputError);
      await assert.rejects(store.forget(scope, { sessionId: "nope" }), NotFoundError);
      assert.deepEqual(await store.stats(scope), stats);
    } finally {
      await store.close();
    }
  });

  it("fails as STORE_UNAVAILABLE when its thread dies, leaving the file whole and unlocked", async () => {
    const path = join(dir, "crash.db");
    const store = new SqliteStore(path, { busyTimeoutMs: 200 });
    try {
      await fill(store, 200);
      const stats = await store.stats(scope);
      await assert.rejects(
        forgetInWorker({ path, scope, request: { about: "sam", record: forgetRecord }, simulateCrash: true }),
        StoreUnavailableError,
      );
      assert.deepEqual(await store.stats(scope), stats);
      // The dead thread's lock went with it: a write goes through at once.
      await store.write(scope, { sessions: [session(scope, "after")] });
      assert.equal((await store.stats(scope)).sessions, stats.sessions + 1);
    } finally {
      await store.close();
    }
  });

  it("lets close() wait for a forget in flight", async () => {
    const path = join(dir, "close.db");
    const store = new SqliteStore(path);
    await fill(store, 200);
    const forgetting = store.forget(scope, { about: "sam" });
    await store.close();
    const report = await forgetting;
    assert.equal(report.turns, 190);
    const again = new SqliteStore(path);
    try {
      assert.equal((await again.stats(scope)).turns, 10);
    } finally {
      await again.close();
    }
  });
});
