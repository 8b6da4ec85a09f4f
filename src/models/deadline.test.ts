import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ModelTimeoutError } from "../core/errors.js";
import { LONGEST_RETRY_WAIT_MS, pause, retryWait, withinDeadline } from "./deadline.js";

const who = "The test model";

/** The Timeout handles alive in this process, to see that a finished call left none behind. */
function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

describe("withinDeadline", () => {
  it("answers what the work answers in time and leaves no timer behind", async () => {
    const before = timers();
    const value = await withinDeadline({ ms: 500, who }, async () => "ok");
    assert.equal(value, "ok");
    assert.equal(timers(), before);
  });

  it("fails at the deadline with a ModelTimeoutError naming it, even if the work ignores its signal", async () => {
    let seen: AbortSignal | undefined;
    const started = performance.now();
    await assert.rejects(
      withinDeadline({ ms: 100, who, details: { where: "here" } }, (signal) => {
        seen = signal;
        return new Promise(() => undefined);
      }),
      (error: unknown) => {
        assert.ok(error instanceof ModelTimeoutError);
        assert.match(error.message, /^The test model did not answer in time: .*within 100 ms/);
        assert.deepEqual(error.details, { where: "here", timeoutMs: 100 });
        return true;
      },
    );
    assert.ok(performance.now() - started < 100 + 150);
    // The work is told, so that it can close what it holds.
    assert.ok(seen?.aborted);
    assert.ok(seen?.reason instanceof ModelTimeoutError);
  });

  it("refuses an answer that is complete only after the deadline", async () => {
    await assert.rejects(
      withinDeadline({ ms: 20, who }, async () => {
        // A parse that blocks the event loop past the deadline: the timer cannot fire meanwhile.
        const until = performance.now() + 60;
        while (performance.now() < until);
        return "late";
      }),
      ModelTimeoutError,
    );
  });

  it("ends at once with the caller's reason when the caller aborts", async () => {
    const caller = new AbortController();
    let seen: AbortSignal | undefined;
    const call = withinDeadline({ ms: 5000, signal: caller.signal, who }, (signal) => {
      seen = signal;
      return new Promise(() => undefined);
    });
    const reason = new Error("the user left");
    const started = performance.now();
    setTimeout(() => caller.abort(reason), 20);
    await assert.rejects(call, (error) => error === reason);
    assert.ok(performance.now() - started < 20 + 100);
    assert.ok(seen?.aborted);
  });

  it("does not start the work when the caller has already aborted", async () => {
    let started = false;
    await assert.rejects(
      withinDeadline({ ms: 100, signal: AbortSignal.abort(), who }, async () => {
        started = true;
      }),
      { name: "AbortError" },
    );
    assert.equal(started, false);
  });

  it("passes the work's own failure on, and sets no timer without a deadline", async () => {
    const before = timers();
    const failing = withinDeadline({ ms: undefined, who }, async () => {
      assert.equal(timers(), before);
      throw new RangeError("broken");
    });
    await assert.rejects(failing, RangeError);
  });
});

describe("retry waits", () => {
  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

  it("waits what the server asks for, up to a minute", () => {
    assert.equal(retryWait(0, headers({ "retry-after": "0" })), 0);
    assert.equal(retryWait(3, headers({ "retry-after": "2" })), 2000);
    assert.equal(retryWait(0, headers({ "retry-after-ms": "150", "retry-after": "9" })), 150);
  });

  it("backs off from half a second, doubling up to 8 s, when the server asks nothing or too much", () => {
    for (let i = 0; i < 20; i++) {
      const first = retryWait(0);
      assert.ok(first > 0.75 * 500 - 1 && first <= 500);
      const late = retryWait(10, headers({ "retry-after": String(LONGEST_RETRY_WAIT_MS / 1000 + 1) }));
      assert.ok(late > 0.75 * 8000 - 1 && late <= 8000);
    }
  });

  it("stops waiting when the caller aborts", async () => {
    const caller = new AbortController();
    const before = timers();
    const waiting = pause(10_000, caller.signal);
    caller.abort();
    await assert.rejects(waiting, { name: "AbortError" });
    assert.equal(timers(), before);
  });
});
