import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { main } from "../../src/cli/main.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { servedUrl } from "../fixtures/served-url.js";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "memlane-serve-"));
const db = join(dir, "serve.db");
const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };

/** Runs the CLI in this process (a spawn costs seconds of start-up), capturing what it prints. */
async function memlane(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const write = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const code = await main(["node", "memlane", "--db", db, ...args]);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
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

  it("serves on loopback: a key's request works, none gets 401, and SIGTERM stops it cleanly", async () => {
    const { key } = JSON.parse((await memlane("keys", "create", "--tenant", "acme", "--json")).stdout) as {
      key: string;
    };
    const child = spawn(
      process.execPath,
      ["--import", "tsx", CLI, "--db", db, "--json", "serve", "--port", "0"],
      {
        env,
      },
    );
    try {
      const url = await servedUrl(child);
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
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    }
  });

  it("memlane mcp serves the tools over stdio in the --tenant given", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", CLI, "--db", db, "--tenant", "initech", "mcp"],
      env: env as Record<string, string>,
      stderr: "ignore",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
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
    }
  });
});
