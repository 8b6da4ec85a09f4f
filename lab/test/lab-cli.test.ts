/**
 * The lab's command line (`npm run lab -- eval …`, lab/main.ts), run in this process: the same
 * arguments and environment the tests gave `memlane eval …` when the evaluations were part of the
 * memlane command, the same exit codes and output expected (its usage line now says `lab`).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { ScriptedChatModel } from "../../src/models/test-doubles.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { demoTranscript } from "../../test/fixtures/engine.js";
import { runLab } from "../../test/fixtures/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-lab-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function lab(...args: string[]) {
  return runLab(args, { env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" } });
}

describe("lab eval carecall", () => {
  it("prints the carecall table with the baseline", async () => {
    const dev = new URL("../data/carecall/dev.jsonl", import.meta.url).pathname;
    const r = await runLab(["eval", "carecall", dev, "--embedder", "hash", "--json"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(r.code, 0, r.stderr);
    const [withFusion, without] = JSON.parse(r.stdout).reports;
    assert.equal(withFusion.fusion, true);
    assert.equal(without.fusion, false);
    assert.ok(withFusion.baseline.setF1.exact < withFusion.setF1.exact);
    const bad = await runLab(["eval", "carecall", dev, "--engine", "llm"]);
    assert.equal(bad.code, 3, "llm engine without a chat model is refused");
  });
});

describe("lab eval teafarm", () => {
  it("runs TeaFarm end to end against an OpenAI-compatible server", async () => {
    const story = join(dir, "story.json");
    writeFileSync(story, JSON.stringify(demoTranscript));
    const model = scriptedLlm({
      reply: (system) => ({
        rationale: "r",
        reply: /Bristol/.test(system) ? "You moved to Bristol." : "Leeds!",
      }),
    });
    const server = await startFakeOpenAIWith(model);
    try {
      const r = await runLab([
        "eval",
        "teafarm",
        story,
        "--questions",
        "1",
        "--exam",
        join(dir, "exams.json"),
        "--chat-url",
        server.url,
        "--chat-model",
        "fake",
        "--judge-url",
        server.url,
        "--judge-model",
        "fake-judge",
        "--embedder",
        "hash",
        "--json",
      ]);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout).reports[0];
      assert.equal(report.judge, "openai:fake-judge", "judged by the judge model, not the one under test");
      assert.equal(report.items.length, 1);
      assert.equal(report.strategy, "theanine");
      assert.equal(report.items[0].correct, true);
      assert.match(r.stderr, /writing counterfactual questions/);
    } finally {
      await server.close();
    }
  });
});

describe("lab eval teafarm offline", () => {
  it("says plainly what an offline exam measures", async () => {
    const story = join(dir, "story-offline.json");
    writeFileSync(story, JSON.stringify(demoTranscript));
    const r = await lab("eval", "teafarm", story, "--questions", "1", "--embedder", "hash", "--no-exam");
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /offline exam: .*restates the later fact, not whether it resists a counterfactual premise/,
    );
  });
});

describe("lab judged evaluations", () => {
  it("refuse a judge that is the system's own model, unless --allow-same-judge", async () => {
    const story = join(dir, "story-judge.json");
    writeFileSync(story, JSON.stringify(demoTranscript));
    const same = [
      "--chat-url",
      "http://127.0.0.1:9/v1",
      "--chat-model",
      "m",
      "--judge-url",
      "http://127.0.0.1:9/v1/",
    ];
    for (const cmd of ["teafarm", "creem-qa"]) {
      const r = await lab("eval", cmd, story, ...same, "--judge-model", "m");
      assert.equal(r.code, 3, `${cmd}: ${r.stderr}`);
      assert.match(r.stderr, /The judge is the system under test .*--allow-same-judge/);
    }
    const unwritten = await lab(
      "eval",
      "creem-qa",
      story,
      "--chat-url",
      "http://127.0.0.1:9/v1",
      "--chat-model",
      "m",
    );
    assert.equal(unwritten.code, 3, "creem-qa without an exam writer of its own");
    assert.match(unwritten.stderr, /creem-qa writes its exam with a model of its own/);
  });
});

describe("lab eval emma", () => {
  it("has --help on every EMMA evaluation", async () => {
    for (const cmd of [
      ["eval", "emma"],
      ["eval", "emma-links"],
    ]) {
      const r = await lab(...cmd, "--help");
      assert.equal(r.code, 0, cmd.join(" "));
      assert.match(r.stdout, /Usage: lab/);
    }
  });

  it("refuses bad lab options with exit code 3", async () => {
    const r = await lab("eval", "emma", "--part", "middle");
    assert.equal(r.code, 3);
    assert.match(r.stderr, /--part must be all, tune or test/);
    assert.equal((await lab("eval", "emma-links", "--judge", "vibes")).code, 3);
  });
});

describe("lab eval mtbench-plus", () => {
  it("refuses --tune with a model engine (it tunes the offline engine's knobs)", async () => {
    const r = await lab("eval", "mtbench-plus", "--tune", "--engine", "scripted");
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /--tune chooses the offline engine's knobs/);
  });
});

/** A loopback OpenAI-compatible server whose answers come from a scripted model double. */
async function startFakeOpenAIWith(model: ScriptedChatModel) {
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
