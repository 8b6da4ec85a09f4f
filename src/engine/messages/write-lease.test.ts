import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { Session } from "../../core/types.js";
import { freshLease, holdLease, leaseLive, leaseOf, WRITE_LEASE_KEY, WRITE_LEASE_MS } from "./write-lease.js";

const quiet = { debug() {}, warn() {}, error() {} };
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe("the write lease of a keyed one-call write", () => {
  it("is live until it lapses, and absent means no call holds it", () => {
    const session = (meta: Record<string, unknown>) =>
      ({
        id: "s",
        tenant: "t",
        agent: "a",
        partners: [],
        at: "",
        status: "open",
        strategy: "x",
        meta,
        recordedAt: "",
      }) as Session;
    const now = Date.parse("2024-05-01T12:00:00Z");
    assert.equal(
      leaseLive(session({ [WRITE_LEASE_KEY]: freshLease("me", now) }), now + WRITE_LEASE_MS - 1),
      true,
    );
    assert.equal(
      leaseLive(session({ [WRITE_LEASE_KEY]: freshLease("me", now) }), now + WRITE_LEASE_MS),
      false,
    );
    assert.equal(leaseLive(session({}), now), false);
    assert.equal(leaseOf(session({ [WRITE_LEASE_KEY]: "garbage" })), null);
  });

  it("is renewed while held, and removed at the end only if still the holder's", async () => {
    const mem = await testMemlane({ strategy: "creem", logger: quiet });
    mock.timers.enable({ apis: ["setInterval", "Date"], now: Date.parse("2024-05-01T12:00:00Z") });
    try {
      const scope = mem.scope("ava");
      const handle = await mem.session({ agent: "ava", partner: "kim", meta: { keep: 1 } });
      const lease = () => mem.getSession("ava", handle.id).then((s) => leaseOf(s!));
      const held = await holdLease(mem.store, scope, handle.id, "me");
      const first = (await lease())!;
      assert.equal(first.holder, "me");
      mock.timers.tick(WRITE_LEASE_MS / 3);
      await settle();
      const renewed = (await lease())!;
      assert.ok(
        Date.parse(renewed.until) > Date.parse(first.until),
        "a live call keeps its lease from lapsing",
      );
      await held.end();
      assert.equal(await lease(), null);
      assert.deepEqual((await mem.getSession("ava", handle.id))!.meta, { keep: 1 });

      // Taken over meanwhile (this call was taken for dead): the new holder's lease stays.
      const stale = await holdLease(mem.store, scope, handle.id, "old");
      const other = await holdLease(mem.store, scope, handle.id, "new");
      await stale.end();
      assert.equal((await lease())?.holder, "new");
      await other.end();
      assert.equal(await lease(), null);
    } finally {
      mock.timers.reset();
      await mem.close();
    }
  });
});
