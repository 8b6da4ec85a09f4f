import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { LlmCognition } from "../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { ScriptedChatModel } from "../../src/models/test-doubles.js";
import { memochatStrategy } from "../../src/strategies/memochat/memochat.js";
import { createStrategy } from "../../src/strategies/registry.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { startFakeOpenAI } from "../../test/fixtures/fake-openai-server.js";
import { runLab } from "../../test/fixtures/run-cli.js";
import { readMtbench } from "../eval/mtbench-plus/dataset.js";
import { evaluateMtbench, scoreRecall } from "../eval/mtbench-plus/evaluate.js";
import { JUDGE_TASK, parseRating } from "../eval/mtbench-plus/judge.js";
import { mtbenchChart, mtbenchMarkdown } from "../eval/mtbench-plus/report.js";

/** A conversation in MT-Bench+'s shape: human turns with turn-info, empty chatbot turns. */
function conversation(id: string, type: string, human: [string, string][]) {
  return {
    id,
    type,
    conversations: human.flatMap(([value, info]) => [
      { from: "human", value, "turn-info": info },
      { from: "chatbot", value: "" },
    ]),
  };
}

const KYOTO: [string, string][] = [
  ["Plan a three day trip to Kyoto with temples and gardens for a first visit.", "writing-1-0"],
  ["Add a tea ceremony in Kyoto to the second day of the trip.", "writing-1-1"],
  ["Explain how photosynthesis turns sunlight into sugar inside the chloroplast.", "stem-2-0"],
  ["What about photosynthesis in cactus plants living in deserts?", "stem-2-1"],
  ["Write a haiku about the ocean waves at night.", "writing-3-0"],
  ["Rewrite the ocean haiku so it rhymes.", "writing-3-1"],
  ["On the Kyoto trip plan, which temple did you put on the first day?", "writing-1-Q"],
];

function file() {
  const types = ["retrospection", "continuation", "conjunction"];
  return Array.from({ length: 6 }, (_, i) => conversation(`conv-${i}`, types[i % 3]!, KYOTO));
}

describe("MT-Bench+ data", () => {
  it("reads topics from turn-info and splits each type in halves by hash, before anything is measured", () => {
    const convs = readMtbench(file(), "test.json");
    assert.equal(convs.length, 6);
    assert.deepEqual(convs[0]!.final, {
      text: KYOTO.at(-1)![0],
      topics: ["writing-1"],
    });
    assert.equal(convs[0]!.turns[2]!.topic, "stem-2");
    for (const type of ["retrospection", "continuation", "conjunction"]) {
      const ofType = convs.filter((c) => c.type === type);
      assert.deepEqual(ofType.map((c) => c.split).sort(), ["test", "tune"]);
    }
    assert.deepEqual(
      readMtbench(file(), "again").map((c) => c.split),
      convs.map((c) => c.split),
      "the same split every time",
    );
  });

  it("reads a conjunction's two topics, and refuses a file it cannot score", () => {
    const conj = conversation("c", "conjunction", [
      ...KYOTO.slice(0, -1),
      ["Combine them.", "writing-1-stem-2-Q"],
    ]);
    assert.deepEqual(readMtbench([conj], "x")[0]!.final.topics, ["writing-1", "stem-2"]);
    assert.throws(() => readMtbench({}, "x.json"), InvalidInputError);
    assert.throws(
      () =>
        readMtbench(
          [
            conversation("c", "retrospection", [
              ["hi", "writing-1-0"],
              ["q?", "math-9-Q"],
            ]),
          ],
          "x",
        ),
      /names math-9, never discussed/,
    );
    assert.throws(() => readMtbench([conversation("c", "other", KYOTO)], "x"), /"type" must be one of/);
  });

  it("the judge's rating is read from [[n]], 1 to 100, or not at all", () => {
    assert.equal(parseRating("Faithful overall. [[82]]"), 82);
    assert.equal(parseRating("no rating"), null);
    assert.equal(parseRating("[[0]]"), null);
    assert.equal(parseRating("[[140]]"), null);
  });

  it("scores recalled turns and options against the gold topic", () => {
    const gold = new Set(["t1", "t2", "t3", "t4"]);
    const memories = [
      { id: "m1", sourceTurns: ["t1", "t2"] },
      { id: "m2", sourceTurns: ["t3", "t4", "t5"] },
      { id: "m3", sourceTurns: ["t5", "t6"] },
    ];
    const s = scoreRecall(
      [
        { id: "m1", sourceTurns: ["t1", "t2"] },
        { id: "m3", sourceTurns: ["t5", "t6"] },
      ],
      gold,
      memories,
    );
    assert.equal(s.turnRecall, 0.5);
    assert.equal(
      scoreRecall([{ id: "m1", sourceTurns: ["t1"] }], gold, memories, new Set(["t1", "t3"])).partnerRecall,
      0.5,
    );
    assert.equal(s.turnPrecision, 0.5);
    assert.equal(s.optionF1, 0.5, "gold options m1 and m2; m1 of 2 picked right");
    assert.equal(scoreRecall([], gold, memories).turnPrecision, 0, "choosing nothing is not precise");
    assert.equal(
      scoreRecall([], gold, [{ id: "m3", sourceTurns: ["t5"] }]).optionF1,
      0,
      "no memory of the topic",
    );
  });
});

describe("eval mtbench-plus", () => {
  it("offline: memochat's chosen entries cover the gold topic's turns, the others are scored the same way", async () => {
    const convs = readMtbench(file(), "t").slice(0, 2);
    const embedder = new HashEmbedder();
    const report = await evaluateMtbench(
      convs,
      [memochatStrategy({ cut: 0.1, chooser: { threshold: 0.1 } }), createStrategy("carecall")],
      { embedder, cognition: () => new OfflineCognition(embedder) },
    );
    const memochat = report.questions.filter((q) => q.strategy === "memochat");
    assert.equal(memochat.length, 2);
    for (const q of memochat) {
      assert.equal(q.goldTurns, 4, "the trip's two questions and the two replies");
      assert.ok(q.turnRecall > 0, "the trip entry was chosen");
      assert.equal(q.turnPrecision, 1, "and nothing about photosynthesis or haiku");
      assert.equal(q.judge, null, "no judge without a chat model");
    }
    assert.equal(report.rows.length, 2);
    assert.equal(report.rows[0]!.perTurn.calls, 0, "offline costs no call");
    const md = mtbenchMarkdown(report);
    assert.match(md, /\| memochat \| (test|tune) \| all \|/);
    assert.match(mtbenchChart(report), /^<svg/);
  });

  it("a new topic's first question should choose nothing: memochat's none-of-the-others is counted", async () => {
    const convs = readMtbench(file(), "t").slice(0, 1);
    const embedder = new HashEmbedder();
    const small = memochatStrategy({ cut: 0.1, chooser: { threshold: 0.1 }, limits: { lines: 4 } });
    const report = await evaluateMtbench(convs, [small], {
      embedder,
      cognition: () => new OfflineCognition(embedder),
    });
    const q = report.questions[0]!;
    assert.equal(q.openings, 2, "photosynthesis and the haiku open topics once the trip is in the memo");
    assert.equal(q.openingsNothing, 2, "and nothing earlier relates to them");
    assert.equal(report.rows[0]!.cells.all.all.noneRight, 1);
    assert.match(mtbenchMarkdown(report), /\| 1\.000 \(2\) \|/);
  });

  it("with a model: calls and tokens per turn by part, and the judge's score per type", async () => {
    const convs = readMtbench(file(), "t").slice(0, 1);
    const embedder = new HashEmbedder();
    const llm = scriptedLlm();
    const judge = new ScriptedChatModel((messages, options) => {
      assert.equal(options.task, JUDGE_TASK);
      assert.match(
        messages.at(-1)!.content,
        /Plan a three day trip to Kyoto/,
        "the judge sees the gold history",
      );
      assert.doesNotMatch(messages.at(-1)!.content, /photosynthesis/, "and only that");
      return "Consistent with the plan. [[64]]";
    });
    const report = await evaluateMtbench(convs, [memochatStrategy()], {
      embedder,
      cognition: () => new LlmCognition(llm),
      judge,
    });
    const q = report.questions[0]!;
    assert.equal(q.judge, 64);
    assert.equal(q.partnerTurns, 7);
    assert.ok(q.cost.writing.calls >= 1, "the memo was written (at 10 lines, and at session end)");
    assert.ok(q.cost.retrieval.calls >= 1, "topics were chosen once the memo had entries");
    assert.equal(q.cost.reply.calls, 7, "six replies in the talk, one to the final question");
    const row = report.rows[0]!;
    assert.ok(row.perTurn.calls > 1 && row.perTurn.promptTokens > 0);
    assert.equal(row.cells.all.all.judge, 64);
    assert.match(mtbenchMarkdown(report), /judge 1-100/);
  });

  it("asks the judged question in a new session after the talk closed, within the paper's 2K-token window", async () => {
    // Long turns: the talk alone is far past 2,048 tokens.
    const long = KYOTO.map(([text, info], i): [string, string] =>
      i === KYOTO.length - 1 ? [text, info] : [`${text} ${"Some more detail on this. ".repeat(120)}`, info],
    );
    const convs = readMtbench([conversation("long", "retrospection", long)], "t");
    const embedder = new HashEmbedder();
    const replies: { system: string; users: string[]; chars: number }[] = [];
    const llm = scriptedLlm({
      byName: {
        reply: (messages) => {
          const dialogue = messages.slice(1);
          replies.push({
            system: messages[0]!.content,
            users: dialogue.filter((m) => m.role === "user").map((m) => m.content),
            chars: dialogue.reduce((n, m) => n + m.content.length, 0),
          });
          return "ok";
        },
      },
    });
    await evaluateMtbench(convs, [createStrategy("accumulate")], {
      embedder,
      cognition: () => new LlmCognition(llm),
      judge: new ScriptedChatModel(() => "Fine. [[50]]"),
    });
    assert.equal(replies.length, KYOTO.length);
    // The paper's window: 2,048 tokens, at four characters a token.
    for (const r of replies) assert.ok(r.chars <= 2_048 * 4, `a reply saw ${r.chars} characters`);
    const final = replies.at(-1)!;
    assert.deepEqual(final.users, [KYOTO.at(-1)![0]], "the final question opens a session of its own");
    assert.match(final.system, /What you remember:\n- .*Kyoto/, "and is answered from memory");
    const named = (name: string) =>
      llm.calls.filter((c) => (c.options.jsonSchema?.name ?? c.options.task) === name);
    assert.equal(named("standing").length, 0, "no standing instructions: the paper has none");
  });

  it("judges with its own model (--judge-url, --judge-model), asking the final question in a new session", async () => {
    const judgeServer = await startFakeOpenAI({ answer: () => "Faithful to the plan. [[71]]" });
    const dir = mkdtempSync(join(tmpdir(), "memlane-mtb-judge-"));
    try {
      const path = join(dir, "mtb.json");
      writeFileSync(path, JSON.stringify(file()));
      const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };
      // One conversation, the scripted engine, judged through the loopback endpoint.
      const play = [
        "eval",
        "mtbench-plus",
        path,
        "--engine",
        "scripted",
        "--strategies",
        "memochat",
        "--limit",
        "1",
        "--split",
        "all",
        "--judge-url",
        judgeServer.url,
      ];
      const run = await runLab([...play, "--judge-model", "judge-model", "--json"], { env });
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout) as { questions: { judge: number | null }[] };
      assert.deepEqual(
        report.questions.map((q) => q.judge),
        [71],
      );
      // Every judge call went to the judge's endpoint, with the judge's model, and nothing else did.
      const chats = judgeServer.requests.filter((r) => r.path.endsWith("/chat/completions"));
      assert.equal(chats.length, 1);
      assert.equal(chats[0]!.body.model, "judge-model");
      const asked = JSON.stringify(chats[0]!.body.messages);
      assert.doesNotMatch(asked, /e\.g\. \[\[/, "no anchor number in the judge's instructions");
      // A judge endpoint without its model is refused.
      const unjudged = await runLab([...play, "--json"], { env });
      assert.equal(unjudged.code, 3, "--judge-url needs --judge-model");
      // The model under test never judges itself unless asked to.
      const own = ["--engine", "llm", "--chat-url", judgeServer.url, "--chat-model", "judge-model"];
      const selfJudged = await runLab(
        [...play.filter((a) => a !== "scripted" && a !== "--engine"), ...own, "--judge-model", "judge-model"],
        { env },
      );
      assert.equal(selfJudged.code, 3, selfJudged.stderr);
      assert.match(selfJudged.stderr, /The judge is the system under test/);
      const help = await runLab(["eval", "mtbench-plus", "--help"], { env });
      assert.doesNotMatch(help.stdout, /also judges/);
      assert.match(help.stdout.replace(/\s+/g, " "), /never this model/);
    } finally {
      await judgeServer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
