import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { StoreUnavailableError } from "../../core/errors.js";
import { memory, scopeA, session, turn } from "../../testing/rows.js";
import { runStoreConformance } from "../../testing/store-conformance.js";
import { MIGRATIONS } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "memlane-store-"));
}

runStoreConformance("sqlite (in memory)", async () => ({ store: new SqliteStore(":memory:") }));
runStoreConformance("sqlite (file, WAL)", async () => {
  const dir = tempDir();
  const path = join(dir, "m.db");
  return {
    store: new SqliteStore(path),
    spec: `sqlite:${path}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
    // After a kill: the file is sound and no row lost its parent.
    verify: () => {
      const raw = new Database(path);
      try {
        assert.equal(raw.pragma("integrity_check", { simple: true }), "ok");
        assert.deepEqual(raw.pragma("foreign_key_check"), []);
      } finally {
        raw.close();
      }
    },
  };
});

describe("sqlite store specifics", () => {
  it("erases forgotten text from the file itself", async () => {
    const dir = tempDir();
    const path = join(dir, "m.db");
    const store = new SqliteStore(path);
    const secret = "Sam's secret word is PERIWINKLE-4217";
    await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
    await store.write(scopeA, {
      turns: [turn(scopeA, "s1", 0, "sam", secret)],
      memories: [memory(scopeA, secret)],
    });
    await store.close();
    const before = new SqliteStore(path);
    assert.ok((await before.listTurns(scopeA)).some((t) => t.text === secret));
    await before.forget(scopeA, { about: "sam" });
    await before.close();
    for (const file of ["m.db", "m.db-wal"]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(dir, file));
      } catch {
        continue;
      }
      assert.equal(
        bytes.includes(Buffer.from("PERIWINKLE")),
        false,
        `${file} still holds the forgotten text`,
      );
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses files that are not memlane databases, and says why", async () => {
    const dir = tempDir();
    const junk = join(dir, "junk.db");
    writeFileSync(
      junk,
      "this is not sqlite at all, just text that is long enough to be read as a header....",
    );
    assert.throws(() => new SqliteStore(junk), StoreUnavailableError);
    const foreign = join(dir, "foreign.db");
    const db = new Database(foreign);
    db.exec("CREATE TABLE orders (id INTEGER)");
    db.close();
    assert.throws(() => new SqliteStore(foreign), /not memlane's/);
    assert.throws(() => new SqliteStore(join(dir, "missing", "deeper", "m.db")), StoreUnavailableError);
    assert.throws(() => new SqliteStore(join(dir, "absent.db"), { readonly: true }), StoreUnavailableError);
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports a database locked by another process as unavailable, and loses nothing", async () => {
    const dir = tempDir();
    const path = join(dir, "m.db");
    const store = new SqliteStore(path, { busyTimeoutMs: 100 });
    await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
    // Another connection holds the write lock.
    const holder = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    await assert.rejects(
      store.write(scopeA, { memories: [memory(scopeA, "blocked")] }),
      (e: unknown) => e instanceof StoreUnavailableError && /locked/.test((e as Error).message),
    );
    holder.exec("ROLLBACK");
    holder.close();
    await store.write(scopeA, { memories: [memory(scopeA, "after")] });
    assert.deepEqual(
      (await store.listMemories(scopeA)).map((m) => m.text),
      ["after"],
    );
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("migrates a new file once and reopens it without change", async () => {
    const dir = tempDir();
    const path = join(dir, "m.db");
    new SqliteStore(path).close();
    const db = new Database(path);
    const version = db.pragma("user_version", { simple: true });
    db.close();
    assert.equal(version, MIGRATIONS.length);
    const again = new SqliteStore(path);
    assert.deepEqual(await again.listSessions(scopeA), []);
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("step 2 drops turn vectors made from the words alone and keeps memory vectors", async () => {
    const dir = tempDir();
    const path = join(dir, "v1.db");
    new SqliteStore(path).close();
    const db = new Database(path);
    const insert = db.prepare(
      "INSERT INTO embeddings (tenant, agent, owner_kind, owner_id, model, dims, vector) VALUES (?, ?, ?, ?, 'm', 1, x'00000000')",
    );
    insert.run(scopeA.tenant, scopeA.agent, "turn", "t1");
    insert.run(scopeA.tenant, scopeA.agent, "memory", "m1");
    db.pragma("user_version = 1");
    db.close();
    const upgraded = new SqliteStore(path);
    assert.equal((await upgraded.getEmbeddings(scopeA, "turn", ["t1"], "m")).size, 0);
    assert.equal((await upgraded.getEmbeddings(scopeA, "memory", ["m1"], "m")).size, 1);
    await upgraded.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
