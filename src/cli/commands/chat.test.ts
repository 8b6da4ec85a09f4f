import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { runCli, startCli } from "../../../test/fixtures/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-chat-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };

/** The sessions left open, and the turns stored, in a chat's store. */
async function leftOver(db: string) {
  const open = await runCli(["--db", db, "--json", "sessions", "--agent", "ava", "--open"], { env });
  const inspect = await runCli(["inspect", "--db", db, "--json"], { env });
  const [ava] = (JSON.parse(inspect.stdout) as { agents: { turns: number }[] }).agents;
  return { open: (JSON.parse(open.stdout) as { sessions: unknown[] }).sessions.length, turns: ava?.turns };
}

describe("memlane chat ends cleanly", () => {
  it("answers /help, refuses an unknown command without storing it, and leaves no session open after /close then /quit", async () => {
    const db = join(dir, "commands.db");
    const r = await runCli(["chat", "--agent", "ava", "--partner", "sam", "--db", db], {
      stdin: "I adopted a cat called Miso.\n/help\n/frobnicate now\n/close\n/quit\n",
      env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\/memory {2}list what the agent remembers/);
    assert.match(r.stderr, /unknown command \/frobnicate: /);
    assert.match(r.stderr, /consolidation done/);
    assert.deepEqual(await leftOver(db), { open: 0, turns: 2 });
  });

  it("closes the session on Ctrl-C as /quit does", async () => {
    const db = join(dir, "interrupted.db");
    const stdin = new PassThrough();
    const run = startCli(["chat", "--agent", "ava", "--partner", "sam", "--db", db], { stdin, env });
    stdin.write("I moved to Bristol last week.\n");
    await run.waitForStdout(/ava> /);
    run.stop();
    const r = await run.done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /consolidation done/);
    assert.deepEqual(await leftOver(db), { open: 0, turns: 2 });
  });
});
