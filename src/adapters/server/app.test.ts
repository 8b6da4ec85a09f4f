/**
 * Readiness: `/health` says the process answers; `/ready` says it can serve,
 * by a one-row read of its store, and is 503 STORE_UNAVAILABLE while the store cannot answer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testService } from "../../../test/fixtures/test-service.js";
import { StoreUnavailableError } from "../../core/errors.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";

describe("service: readiness", () => {
  it("/ready is 200 while the store answers and 503 while it cannot; /health stays 200", async () => {
    let down = false;
    const inner = new SqliteStore(":memory:");
    // The store as a database that goes away: every read fails while `down`.
    const store = new Proxy(inner, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === "changeVersion")
          return (...args: unknown[]) =>
            down
              ? Promise.reject(new StoreUnavailableError("Cannot use the database: connection refused"))
              : (value as (...a: unknown[]) => Promise<string>).apply(target, args);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const service = await testService({ engine: { store } });
    try {
      assert.equal((await service.app.request("/ready")).status, 200);
      down = true;
      const ready = await service.app.request("/ready");
      assert.equal(ready.status, 503);
      const body = (await ready.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, "STORE_UNAVAILABLE");
      assert.match(body.error.message, /connection refused/);
      assert.equal((await service.app.request("/health")).status, 200, "the process still answers");
      down = false;
      assert.equal((await service.app.request("/ready")).status, 200);
    } finally {
      await service.close();
    }
  });
});
