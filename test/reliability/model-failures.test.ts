import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type FakeServerOptions, startFakeOpenAI } from "../fixtures/fake-openai-server.js";
import { runCli } from "../fixtures/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-model-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Five one-turn sessions, a week apart. */
const transcript = join(dir, "five.json");
writeFileSync(
  transcript,
  JSON.stringify({
    agent: "ava",
    sessions: Array.from({ length: 5 }, (_, i) => ({
      id: `s${i}`,
      at: `2024-03-0${i + 1}T10:00`,
      partner: "sam",
      turns: [{ speaker: "sam", text: `I adopted beagle number ${i} yesterday.` }],
    })),
  }),
);

/** Runs the CLI (in this process) against a fake model server; the server answers while the CLI runs. */
async function cli(args: string[], server: FakeServerOptions, db: string) {
  const fake = await startFakeOpenAI(server);
  try {
    const r = await runCli(
      [...args, "--db", db, "--embedder", "hash", "--chat-url", fake.url, "--chat-model", "m"],
      { env: { ...process.env, NO_COLOR: "1" } },
    );
    return { status: r.code, stdout: r.stdout, stderr: r.stderr, requests: fake.requests.length };
  } finally {
    await fake.close();
  }
}

describe("reliability: model failures are loud", () => {
  it("stops early and exits 7 when the model hangs, in bounded time", async () => {
    const started = performance.now();
    const r = await cli(
      ["ingest", transcript, "--model-timeout", "150", "--model-retries", "0"],
      { delayMs: 5000 },
      join(dir, "hang.db"),
    );
    assert.equal(r.status, 7, r.stderr);
    assert.match(r.stderr, /3 of 5 sessions failed.*stopped.*unreachable for 3 sessions in a row/s);
    assert.ok(performance.now() - started < 15_000, "three timeouts, not five times three minutes");
  });

  it("stops a per-turn strategy's ingest after a few unreachable turns, not one timeout per turn", async () => {
    const chatty = join(dir, "chatty.json");
    writeFileSync(
      chatty,
      JSON.stringify({
        agent: "ava",
        sessions: Array.from({ length: 3 }, (_, i) => ({
          id: `c${i}`,
          at: `2024-03-0${i + 1}T10:00`,
          partner: "sam",
          // A real exchange: the agent's own turns do no model work, and must not reset the count.
          turns: Array.from({ length: 6 }, (_, n) => ({
            speaker: n % 2 ? "ava" : "sam",
            text: n % 2 ? `Tell me more about day ${i}.` : `Line ${n} of day ${i}: I walked Biscuit.`,
          })),
        })),
      }),
    );
    const db = join(dir, "creem-hang.db");
    const r = await cli(
      ["ingest", chatty, "--strategy", "creem", "--model-timeout", "150", "--model-retries", "0"],
      { delayMs: 5000 },
      db,
    );
    assert.equal(r.status, 7, r.stderr);
    assert.match(r.stderr, /unreachable for 3 turns in a row/);
    assert.ok(r.requests <= 6, `${r.requests} model requests: three partner turns' worth, not nine`);
    // The session stays open with the turns fed so far; nothing of the file is lost.
    const inspect = await runCli(["inspect", "--db", db, "--json"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    const [ava] = (JSON.parse(inspect.stdout) as { agents: { turns: number }[] }).agents;
    assert.equal(ava?.turns, 5, "three partner turns and the two replies between them");
  });

  it("after a stopped per-turn ingest: inspect says to re-run it, and a retry's partial session does not block the file", async () => {
    const file = join(dir, "stopped.json");
    writeFileSync(
      file,
      JSON.stringify({
        agent: "ava",
        sessions: [
          {
            id: "long",
            at: "2024-03-01T10:00",
            partner: "sam",
            turns: Array.from({ length: 6 }, (_, n) => ({
              speaker: "sam",
              text: `Line ${n}: I walked Biscuit by the river.`,
            })),
          },
          {
            id: "next",
            at: "2024-03-08T10:00",
            partner: "sam",
            turns: [{ speaker: "sam", text: "I adopted a cat." }],
          },
        ],
      }),
    );
    const db = join(dir, "stopped.db");
    const env = { ...process.env, NO_COLOR: "1" };
    // A dead model stops the ingest after three turns of the first session, left open.
    const stopped = await cli(
      ["ingest", file, "--strategy", "creem", "--model-timeout", "150", "--model-retries", "0"],
      { delayMs: 5000 },
      db,
    );
    assert.equal(stopped.status, 7, stopped.stderr);
    const inspect = await runCli(["inspect", "--db", db], { env });
    assert.match(inspect.stdout, /left by an ingest that was stopped: run the same `memlane ingest` again/);
    // Someone retries anyway: the open session is closed and consolidated with its three turns.
    await runCli(
      ["retry", "--agent", "ava", "--open", "--db", db, "--embedder", "hash", "--strategy", "creem"],
      { env },
    );
    // The file still ingests whole: the rest of the session continues it; a re-run changes nothing.
    for (const run of [1, 2]) {
      const again = await runCli(["ingest", file, "--db", db, "--embedder", "hash", "--strategy", "creem"], {
        env,
      });
      assert.equal(again.code, 0, `run ${run}: ${again.stderr}`);
    }
    const view = JSON.parse((await runCli(["inspect", "--db", db, "--json"], { env })).stdout) as {
      agents: { turns: number; sessionList: { id: string; status: string }[] }[];
    };
    assert.equal(view.agents[0]!.turns, 7, "every turn of the file, once");
    assert.deepEqual(
      view.agents[0]!.sessionList.map((s) => [s.id, s.status]),
      [
        ["long", "consolidated"],
        ["long~rest", "consolidated"],
        ["next", "consolidated"],
      ],
    );
  });

  it("exits 7 for a server that errors, and for a 200 that is not a completion", async () => {
    const failing = await cli(
      ["ingest", transcript, "--model-retries", "0"],
      { failWith: 500 },
      join(dir, "500.db"),
    );
    assert.equal(failing.status, 7, failing.stderr);
    const html = await cli(
      ["ingest", transcript, "--model-retries", "0"],
      { html: true },
      join(dir, "html.db"),
    );
    assert.equal(html.status, 7, html.stderr);
    assert.match(html.stderr, /not an OpenAI-compatible response/);
  });

  it("exits 8 when every answer is garbage, for ingest and for retry", async () => {
    const db = join(dir, "garbage.db");
    const r = await cli(["ingest", transcript], { answer: () => "I am not JSON" }, db);
    assert.equal(r.status, 8, r.stderr);
    assert.match(r.stdout, /5 failed/);
    const again = await cli(["retry", "--agent", "ava"], { answer: () => "still not JSON" }, db);
    assert.equal(again.status, 8, again.stderr);
    // Each session now holds two failed records; the count is of what this retry ran.
    assert.match(again.stderr, /5 of 5 retried operations failed/);
    const third = await cli(["retry", "--agent", "ava", "--session", "s0"], { answer: () => "no" }, db);
    assert.match(third.stderr, /1 of 1 retried operations failed/);
  });
});
