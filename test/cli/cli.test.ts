import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { demoTranscript } from "../fixtures/engine.js";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "memlane-cli-"));
const db = join(dir, "cli.db");

function memlane(...args: string[]) {
  const embedder = args.includes("demo") ? "use" : "hash";
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, MEMLANE_EMBEDDER: embedder, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

after(() => rmSync(dir, { recursive: true, force: true }));

describe("memlane CLI", () => {
  it("runs when started through a symlink, as npx and npm's bin links start it", () => {
    const link = join(dir, "memlane-link.ts");
    symlinkSync(CLI, link);
    const r = spawnSync(process.execPath, ["--import", "tsx", link, "--version"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\d+\.\d+\.\d+/);
  });

  it("has --help everywhere", () => {
    const top = memlane("--help");
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
    const sub = memlane("recall", "--help");
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /--agent/);
  });

  it("runs the demo offline and writes the HTML report", () => {
    const out = join(dir, "demo.html");
    const r = memlane("demo", "--out", out, "--json");
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.sessions.length, 4);
    assert.ok(result.sessions.every((s: { added: unknown[] }) => s.added.length > 0));
    assert.equal(result.questions.length, 5);
    assert.match(result.questions[0].reply, /Bristol/);
    assert.match(readFileSync(out, "utf8"), /<h1>memlane demo<\/h1>/);
  });

  it("ingests, recalls, shows history and inspects, with --json", () => {
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify(demoTranscript));
    const ingest = memlane("ingest", file, "--db", db);
    assert.equal(ingest.code, 0, ingest.stderr);
    assert.match(ingest.stdout, /ava: 2 sessions \(2 new/);
    const recall = memlane(
      "recall",
      "where",
      "does",
      "Sam",
      "live",
      "--agent",
      "ava",
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
      hits.some((h: { text: string }) => /Bristol|Leeds/.test(h.text)),
      JSON.stringify(hits),
    );
    const history = memlane("history", hits[0].id, "--db", db, "--json");
    assert.equal(history.code, 0, history.stderr);
    assert.equal(JSON.parse(history.stdout).operations[0].type, "APPEND");
    const text = memlane("history", hits[0].id, "--db", db);
    assert.match(text.stdout, /operations:/);
    const inspect = memlane("inspect", "--db", db, "--json", "--agent", "ava");
    assert.equal(JSON.parse(inspect.stdout).agents[0].sessions, 2);
    // Large JSON through a pipe arrives whole (exiting before stdout drains used to cut it at 64 KiB).
    const big = join(dir, "big.json");
    const sessions = Array.from({ length: 250 }, (_, i) => ({
      id: `b${i}`,
      at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
      partner: "sam",
      turns: [
        {
          speaker: "sam",
          text: `I started learning instrument number ${i} with my teacher in London and I love it.`,
        },
      ],
    }));
    writeFileSync(big, JSON.stringify({ agent: "bigagent", sessions }));
    assert.equal(memlane("ingest", big, "--db", db, "--strategy", "accumulate").code, 0);
    const all = memlane("inspect", "--db", db, "--json", "--agent", "bigagent", "--memories", "--all");
    assert.ok(all.stdout.length > 65_536, `only ${all.stdout.length} characters`);
    assert.equal(JSON.parse(all.stdout).agents[0].memoryList.length, 250);
  });

  it("maps errors to typed messages and exit codes", () => {
    const missing = memlane("ingest", join(dir, "nope.json"), "--db", db);
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
    const invalid = memlane("ingest", bad, "--db", db, "--json");
    assert.equal(invalid.code, 3);
    assert.equal(JSON.parse(invalid.stderr).error.code, "INVALID_INPUT");
    assert.equal(memlane("recall", "--db", db).code, 2);
    const noYes = memlane("forget", "--agent", "ava", "--about", "sam", "--db", db);
    assert.equal(noYes.code, 3);
    assert.match(noYes.stderr, /--yes/);
    const junk = join(dir, "junk.db");
    writeFileSync(junk, "x".repeat(200));
    assert.equal(memlane("inspect", "--db", junk).code, 6);
    assert.equal(memlane("history", "mem_nothing", "--db", db).code, 4);
    assert.equal(existsSync(db), true);
  });

  it("forgets with --yes and reports what it removed", () => {
    const r = memlane("forget", "--agent", "ava", "--about", "sam", "--yes", "--db", db, "--json");
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.ok(report.memories > 0);
    assert.equal(report.turns, 2);
  });

  it("chats over stdin with a memory panel", () => {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", CLI, "chat", "--agent", "ava", "--partner", "sam", "--db", join(dir, "chat.db")],
      {
        // The empty line is nothing said: the talk goes on (it once ended it with exit 3).
        input: "I adopted a beagle called Biscuit yesterday.\n\n   \nI moved to Bristol too.\n/quit\n",
        encoding: "utf8",
        env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" },
      },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /ava> /);
    assert.match(r.stdout, /memory \(carecall\)/);
    assert.match(r.stderr, /consolidation done/);
    assert.equal(r.stdout.match(/ava> /g)?.length, 2, "both lines were answered");
  });

  it("refuses to read a database that is not there instead of creating it", () => {
    const path = join(dir, "typo.db");
    const r = spawnSync(process.execPath, ["--import", "tsx", CLI, "inspect", "--db", path], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(r.status, 4, r.stderr);
    assert.match(r.stderr, /No memlane database at/);
    assert.equal(existsSync(path), false);
  });
});

describe("memlane eval", () => {
  it("prints the carecall table with the baseline", () => {
    const dev = new URL("../../lab/data/carecall/dev.jsonl", import.meta.url).pathname;
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", CLI, "eval", "carecall", dev, "--embedder", "hash", "--json"],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    assert.equal(r.status, 0, r.stderr);
    const [withFusion, without] = JSON.parse(r.stdout).reports;
    assert.equal(withFusion.fusion, true);
    assert.equal(without.fusion, false);
    assert.ok(withFusion.baseline.setF1.exact < withFusion.setF1.exact);
    const bad = spawnSync(
      process.execPath,
      ["--import", "tsx", CLI, "eval", "carecall", dev, "--engine", "llm"],
      { encoding: "utf8" },
    );
    assert.equal(bad.status, 3, "llm engine without a chat model is refused");
  });
});

describe("memlane timeline and eval teafarm", () => {
  it("prints a timeline chain with relations", () => {
    const tdb = join(dir, "theanine.db");
    const file = join(dir, "story.json");
    writeFileSync(file, JSON.stringify(demoTranscript));
    const ingest = spawnSync(
      process.execPath,
      ["--import", "tsx", CLI, "ingest", file, "--db", tdb, "--strategy", "theanine"],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    assert.equal(ingest.status, 0, ingest.stderr);
    const listed = JSON.parse(
      spawnSync(
        process.execPath,
        ["--import", "tsx", CLI, "inspect", "--db", tdb, "--agent", "ava", "--memories", "--json"],
        { encoding: "utf8" },
      ).stdout,
    );
    const latest = listed.agents[0].memoryList.at(-1);
    const text = spawnSync(process.execPath, ["--import", "tsx", CLI, "timeline", latest.id, "--db", tdb], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /2024/);
    const json = JSON.parse(
      spawnSync(process.execPath, ["--import", "tsx", CLI, "timeline", latest.id, "--db", tdb, "--json"], {
        encoding: "utf8",
      }).stdout,
    );
    assert.equal(json.chain.at(-1).id, latest.id);
    assert.equal(json.chain.length, text.stdout.split("\n").filter((l) => /\d{4} /.test(l)).length);
  });

  it("runs TeaFarm end to end against an OpenAI-compatible server", async () => {
    const { scriptedLlm } = await import("../../src/testing/scripted-llm.js");
    const { spawn } = await import("node:child_process");
    const model = scriptedLlm({
      reply: (system) => ({
        rationale: "r",
        reply: /Bristol/.test(system) ? "You moved to Bristol." : "Leeds!",
      }),
    });
    const server = await startFakeOpenAIWith(model);
    try {
      const args = [
        "--import",
        "tsx",
        CLI,
        "eval",
        "teafarm",
        join(dir, "story.json"),
        "--questions",
        "1",
        "--chat-url",
        server.url,
        "--chat-model",
        "fake",
        "--embedder",
        "hash",
        "--json",
      ];
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (c) => (out += c));
      child.stderr.on("data", (c) => (err += c));
      const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
      assert.equal(code, 0, err);
      const report = JSON.parse(out).reports[0];
      assert.equal(report.items.length, 1);
      assert.equal(report.strategy, "theanine");
      assert.equal(report.items[0].correct, true);
      assert.match(err, /writing counterfactual questions/);
    } finally {
      await server.close();
    }
  });
});

/** A loopback OpenAI-compatible server whose answers come from a scripted model double. */
async function startFakeOpenAIWith(model: import("../../src/models/test-doubles.js").ScriptedChatModel) {
  const { createServer } = await import("node:http");
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const result = await model.generate(body.messages, { jsonSchema: body.response_format?.json_schema });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: result.text }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
