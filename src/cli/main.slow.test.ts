/**
 * The memlane command line, run in this process (test/fixtures/run-cli.ts): the same arguments,
 * environment and stdin a spawned `memlane` got, the same exit codes and output expected. The
 * real binary, started as a process, is smoke.test.ts's.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { bigTranscript, demoTranscript } from "../../test/fixtures/engine.js";
import { runCli } from "../../test/fixtures/run-cli.js";
import { DEFAULT_MAX_TURN_CHARS } from "../engine/api.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-cli-"));
const db = join(dir, "cli.db");

function memlane(...args: string[]) {
  const embedder = args.includes("demo") ? "use" : "hash";
  return runCli(args, { env: { ...process.env, MEMLANE_EMBEDDER: embedder, NO_COLOR: "1" } });
}

after(() => rmSync(dir, { recursive: true, force: true }));

describe("memlane CLI", () => {
  it("migrate: brings a Postgres schema up to date once, then finds it current; a SQLite file on open", async () => {
    const pg = `pglite:${join(dir, "migrate-pg")}`;
    const first = await memlane("--db", pg, "--json", "migrate");
    assert.equal(first.code, 0, first.stderr);
    const report = JSON.parse(first.stdout) as { from: number; to: number; pgvector: string | null };
    assert.equal(report.from, 0);
    assert.ok(report.to >= 4);
    assert.match(String(report.pgvector), /^\d+\.\d+/);
    const again = JSON.parse((await memlane("--db", pg, "--json", "migrate")).stdout) as typeof report;
    assert.deepEqual([again.from, again.to], [report.to, report.to]);
    const exact = JSON.parse(
      (await memlane("--db", pg, "--vector-search", "exact", "--json", "migrate")).stdout,
    );
    assert.equal(exact.pgvector, null);
    const lite = await memlane("--db", join(dir, "migrate.db"), "migrate");
    assert.equal(lite.code, 0);
    assert.match(lite.stderr, /up to date/);
    assert.match((await memlane("--help")).stdout, /--db <store>.*SQLite file, postgres/s);
  });

  it("has --help everywhere", async () => {
    const top = await memlane("--help");
    assert.equal(top.code, 0);
    for (const cmd of [
      "demo",
      "ingest",
      "recall",
      "history",
      "timeline",
      "inspect",
      "forget",
      "retry",
      "chat",
    ])
      assert.match(top.stdout, new RegExp(`\\b${cmd}\\b`));
    const sub = await memlane("recall", "--help");
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /--agent/);
  });

  it("runs the demo offline and writes the HTML report", async () => {
    const out = join(dir, "demo.html");
    const r = await memlane("demo", "--out", out, "--json");
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.sessions.length, 4);
    assert.ok(result.sessions.every((s: { added: unknown[] }) => s.added.length > 0));
    assert.equal(result.questions.length, 5);
    assert.match(result.questions[0].reply, /Bristol/);
    assert.match(readFileSync(out, "utf8"), /<h1>memlane demo<\/h1>/);
  });

  it("ingests, recalls, shows history and inspects, with --json", async () => {
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify(demoTranscript));
    const ingest = await memlane("ingest", file, "--db", db);
    assert.equal(ingest.code, 0, ingest.stderr);
    assert.match(ingest.stdout, /ava: 2 sessions \(2 new/);
    const recall = await memlane(
      "recall",
      "where",
      "did",
      "Sam",
      "move",
      "--agent",
      "ava",
      "--about",
      "sam",
      "--db",
      db,
      "--json",
      "-k",
      "2",
    );
    assert.equal(recall.code, 0, recall.stderr);
    const hits = JSON.parse(recall.stdout).hits;
    assert.ok(hits.length >= 1 && hits.length <= 2);
    assert.ok(
      // Sam's new job retired "works as a nurse in Leeds"; the move is what says where Sam lives.
      hits.some((h: { text: string }) => /Bristol/.test(h.text)),
      JSON.stringify(hits),
    );
    // A recall is for a partner: without --about (nor --scope agent) it is refused on that field.
    const forNobody = await memlane("recall", "where", "--agent", "ava", "--db", db, "--json");
    assert.equal(forNobody.code, 3);
    assert.equal(JSON.parse(forNobody.stderr).error.details.field, "about");
    const whole = await memlane(
      "recall",
      "Bristol",
      "--agent",
      "ava",
      "--scope",
      "agent",
      "--db",
      db,
      "--json",
    );
    assert.equal(whole.code, 0, whole.stderr);
    assert.match(JSON.parse(whole.stdout).hits[0].text, /Bristol/);
    const history = await memlane("history", hits[0].id, "--db", db, "--json");
    assert.equal(history.code, 0, history.stderr);
    assert.equal(JSON.parse(history.stdout).operations[0].type, "APPEND");
    const text = await memlane("history", hits[0].id, "--db", db);
    assert.match(text.stdout, /operations:/);
    const inspect = await memlane("inspect", "--db", db, "--json", "--agent", "ava");
    assert.equal(JSON.parse(inspect.stdout).agents[0].sessions, 2);
    // Large JSON arrives whole (through a pipe from the real binary: smoke.test.ts).
    const big = join(dir, "big.json");
    writeFileSync(big, JSON.stringify(bigTranscript()));
    assert.equal((await memlane("ingest", big, "--db", db, "--strategy", "accumulate")).code, 0);
    const all = await memlane("inspect", "--db", db, "--json", "--agent", "bigagent", "--memories", "--all");
    assert.ok(all.stdout.length > 65_536, `only ${all.stdout.length} characters`);
    assert.equal(JSON.parse(all.stdout).agents[0].memoryList.length, 250);
  });

  it("maps errors to typed messages and exit codes", async () => {
    const missing = await memlane("ingest", join(dir, "nope.json"), "--db", db);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /NOT_FOUND/);
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        agent: "ava",
        sessions: [{ id: "x", at: "2024-01-01", partner: "sam", turns: [{ speaker: "zed", text: "hi" }] }],
      }),
    );
    const invalid = await memlane("ingest", bad, "--db", db, "--json");
    assert.equal(invalid.code, 3);
    assert.equal(JSON.parse(invalid.stderr).error.code, "INVALID_INPUT");
    assert.equal((await memlane("recall", "--db", db)).code, 2);
    const noYes = await memlane("forget", "--agent", "ava", "--about", "sam", "--db", db);
    assert.equal(noYes.code, 3);
    assert.match(noYes.stderr, /--yes/);
    const junk = join(dir, "junk.db");
    writeFileSync(junk, "x".repeat(200));
    assert.equal((await memlane("inspect", "--db", junk)).code, 6);
    assert.equal((await memlane("history", "mem_nothing", "--db", db)).code, 4);
    assert.equal(existsSync(db), true);
  });

  it("forgets with --yes and reports what it removed", async () => {
    const r = await memlane("forget", "--agent", "ava", "--about", "sam", "--yes", "--db", db, "--json");
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.ok(report.memories > 0);
    assert.equal(report.turns, 2);
  });

  it("chats over stdin with a memory panel", async () => {
    const r = await runCli(["chat", "--agent", "ava", "--partner", "sam", "--db", join(dir, "chat.db")], {
      // The empty line is nothing said: the talk goes on (it once ended it with exit 3).
      stdin: "I adopted a beagle called Biscuit yesterday.\n\n   \nI moved to Bristol too.\n/quit\n",
      env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ava> /);
    assert.match(r.stdout, /memory \(carecall\)/);
    assert.match(r.stderr, /consolidation done/);
    assert.equal(r.stdout.match(/ava> /g)?.length, 2, "both lines were answered");
  });

  it("keeps chatting after a refused line and /memory, and ends with the failure's code when steps failed", async () => {
    const long = "word ".repeat(DEFAULT_MAX_TURN_CHARS / 4);
    const db = join(dir, "chat-refused.db");
    const r = await runCli(["chat", "--agent", "ava", "--partner", "sam", "--db", db], {
      stdin: `I adopted a beagle called Biscuit yesterday.\n${long}\n/memory\nI moved to Bristol too.\n/quit\n`,
      env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /INVALID_INPUT: .*at most 1048576 characters.*the chat goes on/);
    assert.equal(
      r.stdout.match(/ava> /g)?.length,
      2,
      "the lines before and after the refused one were answered",
    );
    const inspect = await runCli(["inspect", "--db", db, "--json"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    const [ava] = (JSON.parse(inspect.stdout) as { agents: { turns: number }[] }).agents;
    assert.equal(ava?.turns, 4, "two lines and their replies: /memory is a command, not a turn");

    const { startFakeOpenAI } = await import("../../test/fixtures/fake-openai-server.js");
    const fake = await startFakeOpenAI({ answer: () => "not JSON" });
    try {
      const failing = await runCli(
        ["chat", "--agent", "ava", "--partner", "sam", "--db", join(dir, "chat-failing.db")],
        {
          stdin: "I adopted a beagle called Biscuit yesterday.\n/quit\n",
          env: {
            ...process.env,
            MEMLANE_EMBEDDER: "hash",
            NO_COLOR: "1",
            MEMLANE_CHAT_URL: fake.url,
            MEMLANE_CHAT_MODEL: "m",
            MEMLANE_MODEL_RETRIES: "0",
          },
        },
      );
      assert.notEqual(failing.code, 0, failing.stderr);
      assert.match(failing.stderr, /consolidation failed/);
    } finally {
      await fake.close();
    }
  });

  it("refuses to read a database that is not there instead of creating it", async () => {
    const path = join(dir, "typo.db");
    const r = await runCli(["inspect", "--db", path], { env: { ...process.env, NO_COLOR: "1" } });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /No memlane database at/);
    assert.equal(existsSync(path), false);
  });
});

describe("memlane timeline", () => {
  it("prints a timeline chain with relations", async () => {
    const tdb = join(dir, "theanine.db");
    const file = join(dir, "story.json");
    writeFileSync(file, JSON.stringify(demoTranscript));
    const ingest = await runCli(["ingest", file, "--db", tdb, "--strategy", "theanine"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(ingest.code, 0, ingest.stderr);
    const listed = JSON.parse(
      (await runCli(["inspect", "--db", tdb, "--agent", "ava", "--memories", "--json"])).stdout,
    );
    const latest = listed.agents[0].memoryList.at(-1);
    const text = await runCli(["timeline", latest.id, "--db", tdb], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /2024/);
    const json = JSON.parse((await runCli(["timeline", latest.id, "--db", tdb, "--json"])).stdout);
    assert.equal(json.chain.at(-1).id, latest.id);
    assert.equal(json.chain.length, text.stdout.split("\n").filter((l) => /\d{4} /.test(l)).length);
  });
});
