/**
 * `memlane keys`, `memlane serve` and `memlane mcp`, run in this process (test/fixtures/run-cli.ts):
 * serve is stopped through its run's abort signal, which it takes as it takes SIGTERM (a real
 * SIGTERM to a served process: restart.test.ts); mcp speaks over streams in place of pipes.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { runCli, startCli } from "../../../test/fixtures/run-cli.js";
import { StreamClientTransport } from "../../../test/fixtures/stream-client-transport.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { main } from "../main.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-serve-"));
const db = join(dir, "serve.db");
const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };

/** Runs the CLI in this process (a spawn costs seconds of start-up), capturing what it prints. */
function memlane(...args: string[]) {
  return runCli(["--db", db, ...args]);
}

after(() => rmSync(dir, { recursive: true, force: true }));

describe("memlane keys and memlane serve", () => {
  it("creates a key shown once, lists it without its secret, and revokes it", async () => {
    for (const cmd of [["serve"], ["keys"], ["keys", "create"], ["keys", "list"], ["keys", "revoke"]])
      assert.equal((await memlane(...cmd, "--help")).code, 0, cmd.join(" "));
    const made = await memlane("keys", "create", "--tenant", "acme", "--name", "ci", "--json");
    assert.equal(made.code, 0, made.stderr);
    const { key, id, tenant } = JSON.parse(made.stdout) as { key: string; id: string; tenant: string };
    assert.equal(tenant, "acme");
    assert.match(key, /^mlk_[0-9a-f]{16}_/);
    const listed = await memlane("keys", "list", "--json");
    // The secret is everything after `mlk_<id>_`; it may itself hold "_" (base64url).
    const secret = key.slice("mlk_".length + id.length + 1);
    assert.equal(secret.length, 43);
    assert.ok(!listed.stdout.includes(secret), "the secret is never listed");
    assert.deepEqual(
      (JSON.parse(listed.stdout) as { keys: { id: string; name: string }[] }).keys.map((k) => [k.id, k.name]),
      [[id, "ci"]],
    );
    assert.equal((await memlane("keys", "revoke", id)).code, 0);
    assert.equal(
      (await memlane("keys", "revoke", id)).code,
      4,
      "a revoked key cannot be revoked again (not found)",
    );
    assert.equal((await memlane("keys", "create")).code, 3, "--tenant is required");
  });

  it("serves on loopback: a key's request works, none gets 401, and stopping it (as SIGTERM does) ends it cleanly", async () => {
    const { key } = JSON.parse((await memlane("keys", "create", "--tenant", "acme", "--json")).stdout) as {
      key: string;
    };
    const served = startCli(["--db", db, "--json", "serve", "--port", "0"], { env });
    try {
      // The JSON start line, once it has come in whole.
      const url = (JSON.parse(await served.waitForStdout(/"url"[\s\S]*\}/)) as { url: string }).url;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const none = await fetch(`${url}/v1/agents`);
      assert.equal(none.status, 401);
      const made = await fetch(`${url}/v1/sessions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ agent: "ava", partner: "sam", id: "s1" }),
      });
      assert.equal(made.status, 201);
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { openapi: string };
      assert.equal(doc.openapi, "3.1.0");
    } finally {
      served.stop();
      const { code, stderr } = await served.done;
      assert.equal(code, 0, stderr);
    }
  });

  it("serves as replica 1 of 2 with its index budget (flag or environment), and refuses a bad share or size (exit 3)", async () => {
    const served = startCli(["--db", db, "--json", "serve", "--port", "0", "--replica", "1/2"], {
      env: { ...env, MEMLANE_INDEX_BUDGET: "64MiB" },
    });
    try {
      const start = JSON.parse(await served.waitForStdout(/"url"[\s\S]*\}/)) as {
        url: string;
        replica: string;
      };
      assert.equal(start.replica, "1/2");
      const health = (await (await fetch(`${start.url}/health`)).json()) as {
        replica: { index: number; of: number };
        indexes: { limit: number };
      };
      assert.deepEqual(health.replica, { index: 1, of: 2 });
      assert.equal(health.indexes.limit, 64 * 1024 ** 2);
    } finally {
      served.stop();
      const { code, stderr } = await served.done;
      assert.equal(code, 0, stderr);
    }
    for (const [args, named] of [
      [["serve", "--port", "0", "--replica", "0/2"], /--replica/],
      [["serve", "--port", "0", "--index-budget", "lots"], /--index-budget.*512MiB/],
    ] as const) {
      const r = await runCli(["--db", db, ...args], { env });
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, named);
    }
  });

  it("says a Postgres database cannot be reached, naming it without its password, with no stack (exit 6)", async () => {
    for (const command of [
      ["serve", "--port", "0"],
      ["ingest", "data/demo-conversation.json"],
      ["recall", "--agent", "ava", "--about", "sam", "pets"],
    ]) {
      const r = await runCli(
        [...command, "--db", "postgres://u:secret@127.0.0.1:1/db", "--embedder", "hash"],
        {
          env: { ...process.env, NO_COLOR: "1" },
        },
      );
      assert.equal(r.code, 6, `${command[0]}: ${r.stderr}`);
      assert.match(r.stderr, /STORE_UNAVAILABLE.*postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db.*ECONNREFUSED/);
      assert.doesNotMatch(r.stderr, /secret|\n\s+at /, `${command[0]}: no password, no stack`);
    }
  });

  it("memlane mcp serves the tools over stdio in the --tenant given", async () => {
    // The command's stdin and stdout, as a client's pipes to a spawned `memlane mcp` would be.
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const ran = main(["node", "memlane", "--db", db, "--tenant", "initech", "mcp"], {
      stdin,
      stdout,
      stderr: new PassThrough().resume(),
      env,
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamClientTransport(stdout, stdin));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "remember"));
      const r = (await client.callTool({
        name: "remember",
        arguments: { agent: "ava", partner: "sam", fact: "I keep bees.", close: false },
      })) as { isError?: boolean; content: { text: string }[] };
      assert.ok(!r.isError, r.content[0]?.text);
      const { sessionId } = JSON.parse(r.content[0]!.text) as { sessionId: string };
      // Stored in the tenant the command was given, and only there.
      const store = new SqliteStore(db);
      assert.ok(await store.getSession({ tenant: "initech", agent: "ava" }, sessionId));
      assert.equal(await store.getSession({ tenant: "default", agent: "ava" }, sessionId), null);
      await store.close();
    } finally {
      await client.close();
      // The client gone (its end of stdin closed), the command ends by itself.
      assert.equal(await ran, 0);
    }
  });

  it("memlane mcp --agent --partner lets a desktop client call tools without ids", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const ran = main(
      ["node", "memlane", "--db", db, "--tenant", "desk", "mcp", "--agent", "ava", "--partner", "me"],
      { stdin, stdout, stderr: new PassThrough().resume(), env },
    );
    const client = new Client({ name: "desktop", version: "1.0.0" });
    await client.connect(new StreamClientTransport(stdout, stdin));
    try {
      await client.listTools();
      const r = (await client.callTool({
        name: "remember",
        arguments: { turns: [{ role: "user", content: "I keep bees." }], close: false },
      })) as { isError?: boolean; content: { text: string }[]; structuredContent?: { sessionId: string } };
      assert.ok(!r.isError, r.content[0]?.text);
      const sessionId = r.structuredContent!.sessionId;
      const store = new SqliteStore(db);
      const session = await store.getSession({ tenant: "desk", agent: "ava" }, sessionId);
      assert.deepEqual(session?.partners, ["me"]);
      await store.close();
    } finally {
      await client.close();
      assert.equal(await ran, 0);
    }
  });
});
