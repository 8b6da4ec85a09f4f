/**
 * Retries of keyed one-call writes for the strategies that store turn by turn (creem, memochat:
 * their per-turn work runs as each message lands): a call cut short part-way is finished by its
 * retry, a live one is not raced, and a session that is not the request's is refused.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  cutShort,
  dyingStore,
  exchange,
  keyedCall,
  lapseLease,
  quiet,
  resumesCutShort,
  stillStoring,
  turnOperations,
} from "../../../test/fixtures/cut-short-write.js";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { ConflictError } from "../../core/errors.js";
import { resolveStore } from "../config.js";
import { WRITE_LEASE_KEY } from "./write-lease.js";

describe("a keyed one-call write cut short, sent again (SQLite)", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-keyed-retry-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const store = () => join(dir, `s${++n}.db`);

  for (const strategy of ["creem", "memochat"])
    for (const turns of [3, exchange.length])
      it(`${strategy}: killed after ${turns} of ${exchange.length} turns, the retry stores the rest and closes`, () =>
        resumesCutShort(store(), strategy, turns));

  it("refuses to finish a session whose turns are not the request's first messages", async () => {
    const spec = store();
    await cutShort(spec, "creem", "k", 2);
    const mem = await testMemlane({ store: spec, strategy: "creem", logger: quiet });
    try {
      const sessionId = (await mem.turns("ava"))[0]!.sessionId;
      await lapseLease(mem, sessionId);
      // Added to another way since: its third turn is not the third message.
      await (await mem.resume("ava", sessionId)).turn("kim", "Actually, I have a cat.", {
        at: "2024-03-02T18:00",
      });
      await assert.rejects(mem.add(keyedCall("k")), (e: ConflictError) => {
        assert.ok(e instanceof ConflictError);
        assert.equal(e.details.field, "idempotencyKey");
        assert.equal(e.details.turn, 2);
        assert.notEqual(e.details.retryable, true);
        return true;
      });
      assert.equal((await mem.turns("ava")).length, 3, "nothing appended");
      assert.equal((await mem.getSession("ava", sessionId))?.status, "open");
    } finally {
      await mem.close();
    }
  });

  it("a first call frozen part-way that wakes after its retry finished appends nothing", async () => {
    const spec = store();
    let wake!: () => void;
    const frozen = new Promise<void>((resolve) => {
      wake = resolve;
    });
    // Left open, so nothing but the turns' own ids keeps the woken call from appending.
    const call = { ...keyedCall("frozen"), close: false };
    const one = await testMemlane({
      store: dyingStore(await resolveStore(spec), 2, frozen),
      strategy: "creem",
      logger: quiet,
    });
    const two = await testMemlane({ store: spec, strategy: "creem", logger: quiet });
    try {
      const first = one.add(call);
      while ((await two.turns("ava")).length < 2) await new Promise((r) => setTimeout(r, 5));
      const sessionId = (await two.turns("ava"))[0]!.sessionId;
      await assert.rejects(two.add(call), stillStoring, "its lease is live");
      await lapseLease(two, sessionId);
      const resumed = await two.add(call);
      assert.equal(resumed.replayed, true);
      assert.equal(resumed.session.status, "open");
      wake();
      await assert.rejects(first, stillStoring);
      assert.deepEqual(
        (await two.turns("ava")).map((t) => [t.index, t.text]),
        exchange.map((m, i) => [i, m.content]),
      );
      assert.equal((await turnOperations(two, sessionId)).length, exchange.length);
    } finally {
      await one.close().catch(() => undefined);
      await two.close();
    }
  });

  it("two retries at once on two engines: the messages are stored once, in order", async () => {
    const spec = store();
    await cutShort(spec, "memochat", "twice", 2);
    const one = await testMemlane({ store: spec, strategy: "memochat", logger: quiet });
    const two = await testMemlane({ store: spec, strategy: "memochat", logger: quiet });
    try {
      const sessionId = (await one.turns("ava"))[0]!.sessionId;
      await lapseLease(one, sessionId);
      const both = await Promise.allSettled([one.add(keyedCall("twice")), two.add(keyedCall("twice"))]);
      assert.ok(
        both.some((r) => r.status === "fulfilled"),
        both.map((r) => (r.status === "rejected" ? String(r.reason) : "ok")).join("; "),
      );
      for (const r of both) if (r.status === "rejected") assert.ok(stillStoring(r.reason), String(r.reason));
      const turns = await one.turns("ava");
      assert.deepEqual(
        turns.map((t) => [t.index, t.text]),
        exchange.map((m, i) => [i, m.content]),
      );
      assert.equal((await turnOperations(one, sessionId)).length, exchange.length);
      // A loser sends again and is answered as the winner was.
      const again = await two.add(keyedCall("twice"));
      assert.equal(again.replayed, true);
      assert.deepEqual(
        again.turns.map((t) => t.id),
        turns.map((t) => t.id),
      );
      await one.idle();
      await two.idle();
      assert.equal((await one.getSession("ava", sessionId))?.status, "consolidated");
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe("a keyed one-call write still storing", () => {
  it("is not raced by a call with the same key at the same time: one stores, the other is told to retry", async () => {
    const mem = await testMemlane({ strategy: "creem", logger: quiet });
    try {
      const both = await Promise.allSettled([mem.add(keyedCall("now")), mem.add(keyedCall("now"))]);
      const stored = both.filter((r) => r.status === "fulfilled").map((r) => r.value);
      assert.equal(stored.filter((r) => !r.replayed).length, 1);
      for (const r of both) if (r.status === "rejected") assert.ok(stillStoring(r.reason), String(r.reason));
      const sessionId = stored[0]!.session.id;
      assert.equal((await mem.turns("ava")).length, exchange.length);
      assert.equal((await turnOperations(mem, sessionId)).length, exchange.length);
      // Finished, the first call's answer is every retry's.
      const first = stored.find((r) => !r.replayed)!;
      assert.equal(first.session.meta[WRITE_LEASE_KEY], undefined);
      const again = await mem.add(keyedCall("now"));
      assert.equal(again.replayed, true);
      assert.deepEqual(again.session, (await mem.getSession("ava", sessionId))!);
      assert.deepEqual(
        again.turns.map((t) => t.id),
        first.turns.map((t) => t.id),
      );
      assert.equal(again.job?.id, first.job?.id);
      await mem.idle();
      assert.equal((await mem.getSession("ava", sessionId))?.status, "consolidated");
      assert.equal((await mem.add(keyedCall("now"))).session.status, "consolidated");
    } finally {
      await mem.close();
    }
  });
});
