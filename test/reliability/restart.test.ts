import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { openSqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { servedUrl } from "../fixtures/served-url.js";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "memlane-restart-"));
const db = join(dir, "restart.db");
after(() => rmSync(dir, { recursive: true, force: true }));

/** `memlane serve` on a free loopback port; resolves with the process and its address. */
async function serve(model: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const args = ["--import", "tsx", CLI, "--db", db, ...model, "--json", "serve", "--port", "0"];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await servedUrl(child);
  return { child, url };
}

describe("service: killed and started again", () => {
  it("loses no acknowledged turn, and consolidates every session it had acknowledged closing", async () => {
    const keys = await openSqliteKeyStore(db);
    const { key } = await createApiKey(keys, { tenant: "acme" });
    await keys.close();
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    // The first server thinks with a chat model on loopback that never answers, so every
    // consolidation is still waiting when it is killed; the second thinks offline.
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const port = (hanging.address() as AddressInfo).port;
    const first = await serve([
      "--cognition",
      "llm",
      "--chat-url",
      `http://127.0.0.1:${port}/v1`,
      "--chat-model",
      "never-answers",
      "--model-timeout",
      "600000",
    ]);
    const post = (path: string, body?: unknown) =>
      fetch(`${first.url}${path}`, {
        method: "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const sessions = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const turns: string[] = [];
    for (const id of sessions) {
      assert.equal((await post("/v1/sessions", { agent: "ava", partner: "sam", id })).status, 201);
      for (const text of [`I adopted a beagle number ${id}.`, `My sister lives in Oslo, said in ${id}.`]) {
        const r = await post(`/v1/agents/ava/sessions/${id}/turns`, { speaker: "sam", text });
        assert.equal(r.status, 201);
        turns.push(((await r.json()) as { id: string }).id);
      }
    }
    for (const id of sessions) assert.equal((await post(`/v1/agents/ava/sessions/${id}/close`)).status, 202);
    // Killed while every consolidation waits for the model.
    const killed = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await killed;
    hanging.closeAllConnections();
    hanging.close();

    const scope = { tenant: "acme", agent: "ava" };
    const look = async () => {
      const store = new SqliteStore(db);
      try {
        const stored = new Set((await store.listTurns(scope)).map((t) => t.id));
        const statuses = (await store.listSessions(scope)).map((s) => s.status);
        return { missing: turns.filter((t) => !stored.has(t)), statuses };
      } finally {
        await store.close();
      }
    };
    const afterKill = await look();
    assert.deepEqual(afterKill.missing, [], "every acknowledged turn survived the kill");
    assert.ok(
      afterKill.statuses.includes("closed"),
      `the kill interrupted consolidation: ${afterKill.statuses}`,
    );
    assert.ok(!afterKill.statuses.includes("open"), "every acknowledged close is recorded");

    const second = await serve();
    try {
      for (let i = 0; i < 300; i++) {
        const { statuses } = await look();
        if (statuses.every((s) => s === "consolidated")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const resumed = await look();
      assert.deepEqual(resumed.missing, []);
      assert.deepEqual(
        resumed.statuses,
        sessions.map(() => "consolidated"),
      );
    } finally {
      const exited = new Promise((resolve) => second.child.once("exit", resolve));
      second.child.kill("SIGTERM");
      assert.equal(await exited, 0);
    }
  });
});
