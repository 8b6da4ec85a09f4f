/**
 * The QA lab (`eval qa`): intervals, token F1, the cache that resumes without paying twice,
 * abstention grading, the baselines, a loopback OpenAI-compatible server that rate-limits, fails
 * and answers garbage, question selection and errata, and the three formats end to end through
 * the CLI on the scripted engine.
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import type { ChatModel } from "../../src/models/chat-model.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { OpenAICompatibleChatModel } from "../../src/models/openai-compatible.js";
import { ScriptedChatModel } from "../../src/models/test-doubles.js";
import { createStrategy } from "../../src/strategies/registry.js";
import { startFakeOpenAI } from "../../test/fixtures/fake-openai-server.js";
import { runLab } from "../../test/fixtures/run-cli.js";
import { QaCache } from "../eval/qa/cache.js";
import { fullContext } from "../eval/qa/context.js";
import type { QaSet } from "../eval/qa/qa-set.js";
import { readLocomoQa } from "../eval/qa/readers/locomo.js";
import { readLongMemEval } from "../eval/qa/readers/longmemeval.js";
import { qaMarkdown, qaReport } from "../eval/qa/report.js";
import { ANSWER_RESERVE_TOKENS, type QaRunOptions, recallK, runQa } from "../eval/qa/run.js";
import { scriptedAnswerModel, scriptedJudgeModel } from "../eval/qa/scripted.js";
import { applyErrata, limitQuestions, parseErrata, sampleQuestions } from "../eval/qa/select.js";
import { tokenF1 } from "../eval/qa/token-f1.js";
import { bootstrapMean } from "../eval/stats.js";
import { beamChat, beamProbing, lmeItem, locomoSample, writeConversation } from "./fixtures/qa-files.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-qa-lab-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const embedder = new HashEmbedder();

function ports(answer: ChatModel, judge: ChatModel) {
  return {
    answer,
    judge,
    embedder,
    cognition: () => new OfflineCognition(embedder),
    writer: "offline",
    strategy: createStrategy,
  };
}

async function options(cache: QaCache, more: Partial<QaRunOptions> = {}): Promise<QaRunOptions> {
  return {
    strategies: ["none"],
    baselines: ["no-memory"],
    k: 5,
    contextWindow: 128_000,
    concurrency: 2,
    cache,
    ...more,
  };
}

describe("QA lab statistics", () => {
  it("gives the bootstrap interval of a mean, seeded, and nothing for no scores", () => {
    assert.deepEqual(bootstrapMean([1, 1, 1, 1]), { mean: 1, low: 1, high: 1, n: 4 });
    // Half right out of 400: the normal approximation gives 0.5 ± 1.96 · sqrt(0.25 / 400) = ± 0.049.
    const half = Array.from({ length: 400 }, (_, i) => i % 2);
    const ci = bootstrapMean(half);
    assert.equal(ci.mean, 0.5);
    assert.ok(Math.abs(ci.low - 0.451) < 0.012 && Math.abs(ci.high - 0.549) < 0.012, JSON.stringify(ci));
    assert.deepEqual(bootstrapMean(half), ci, "the same seed gives the same interval");
    const narrow = bootstrapMean(Array.from({ length: 4000 }, (_, i) => i % 2));
    assert.ok(
      narrow.high - narrow.low < (ci.high - ci.low) / 2.5,
      "ten times the questions: about a third as wide",
    );
    assert.ok(Number.isNaN(bootstrapMean([]).mean));
    // Ten conversations, each all right or all wrong: resampling conversations sees ten draws, not 400.
    const clusters = half.map((_, i) => `c${i % 10}`);
    const byConversation = bootstrapMean(half, { clusters });
    assert.equal(byConversation.mean, 0.5);
    assert.ok(
      byConversation.high - byConversation.low > 3 * (ci.high - ci.low),
      JSON.stringify(byConversation),
    );
    // By hand: two clusters {1, 1} and {0}: resampled means are 1, 0 or 2/3, and 1/3 of the time 1.
    const tiny = bootstrapMean([1, 1, 0], { clusters: ["a", "a", "b"], level: 0.5 });
    assert.ok([0, 2 / 3, 1].includes(tiny.low) && [0, 2 / 3, 1].includes(tiny.high));
  });

  it("scores token F1 on normalized, stemmed tokens", () => {
    assert.equal(tokenF1("Bristol; a beagle", "a beagle in Bristol"), 0.8);
    assert.equal(tokenF1("The beagles!", "beagle"), 1);
    assert.equal(tokenF1("Paris", "Rome"), 0);
    assert.equal(tokenF1("", ""), 1);
  });
});

describe("QA lab run", () => {
  const locomo = readLocomoQa([locomoSample()]);

  it("reads LoCoMo: categories 1-4, category 5 apart as an abstention, evidence as turn ids", () => {
    const qs = locomo.conversations[0]!.questions;
    assert.deepEqual(
      qs.map((q) => q.category),
      ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial"],
    );
    assert.deepEqual(qs[0]!.evidence, ["conv-t:D1:1", "conv-t:D2:1"]);
    assert.equal(qs[4]!.apart, true);
    assert.equal(qs[4]!.abstention, true);
    assert.ok(qs[0]!.askedAt! > locomo.conversations[0]!.transcript.sessions[1]!.at);
  });

  it("resumes from its cache without paying twice, and regrades only what errata change", async () => {
    const path = join(dir, "resume.jsonl");
    const answer1 = scriptedAnswerModel();
    const judge1 = scriptedJudgeModel();
    const first = await runQa(locomo, ports(answer1, judge1), await options(await QaCache.open(path)));
    assert.equal(answer1.calls.length, 10, "5 questions × 2 conditions");
    assert.equal(judge1.calls.length, 10);
    // A crash mid-write leaves half a line: it is skipped, and the rest still counts.
    appendFileSync(path, '{"type":"answer","key":"abc","ans');
    const cache = await QaCache.open(path);
    assert.equal(cache.skipped, 1);
    const answer2 = scriptedAnswerModel();
    const judge2 = scriptedJudgeModel();
    const second = await runQa(locomo, ports(answer2, judge2), await options(cache));
    assert.equal(answer2.calls.length + judge2.calls.length, 0, "nothing paid again");
    assert.deepEqual(
      second.rows.map((r) => [r.questionId, r.condition, r.answer, r.score]),
      first.rows.map((r) => [r.questionId, r.condition, r.answer, r.score]),
    );
    assert.ok(second.rows.every((r) => r.cached.answer && r.cached.grade));
    // A line written after the torn one starts on its own line and is read back.
    const afterCrash = await QaCache.open(path);
    await afterCrash.put({
      type: "memory",
      key: "after-crash",
      condition: "none",
      usage: { calls: 1, promptTokens: 2, completionTokens: 3, latencyMs: 4 },
    });
    const reread = await QaCache.open(path);
    assert.equal(reread.skipped, 1);
    assert.equal(reread.memory("after-crash")?.usage.completionTokens, 3);
    const report = qaReport(second);
    assert.equal(report.conditions[0]!.calls.answer, 0);
    assert.equal(report.conditions[0]!.calls.cachedAnswers, 5);
    // A corrected gold answer is graded again; its answer is not asked again.
    const fixed = applyErrata(locomo, parseErrata('{"conv-t:q4": "Rex the beagle"}'));
    assert.equal(fixed.changed, 1);
    const answer3 = scriptedAnswerModel();
    const judge3 = scriptedJudgeModel();
    await runQa(fixed.set, ports(answer3, judge3), await options(await QaCache.open(path)));
    assert.equal(answer3.calls.length, 0);
    assert.equal(
      judge3.calls.length,
      2,
      "the changed question, under both conditions (their answers differ)",
    );
    // Another k asks the strategy's questions again, but an answer graded before is not graded again.
    const answer4 = scriptedAnswerModel();
    const judge4 = scriptedJudgeModel();
    await runQa(fixed.set, ports(answer4, judge4), await options(await QaCache.open(path), { k: 6 }));
    assert.equal(answer4.calls.length, 5, "the strategy's five questions, not the baseline's");
    assert.equal(judge4.calls.length, 0);
  });

  it("grades abstentions as the format says, and keeps LoCoMo's category 5 out of the overall figure", async () => {
    const judge = new ScriptedChatModel((messages) => {
      const system = messages[0]!.content;
      return JSON.stringify({ reason: "by the rule", correct: system.includes("cannot be answered") });
    });
    const set: QaSet = {
      ...readLongMemEval([lmeItem({ question_id: "q9_abs", question: "How many cats did I buy?" })]),
    };
    const run = await runQa(
      set,
      ports(scriptedAnswerModel(), judge),
      await options(await QaCache.open(null)),
    );
    assert.ok(judge.calls.every((c) => c.messages[0]!.content.includes("cannot be answered")));
    assert.ok(run.rows.every((r) => r.score === 1));
    // Abstentions spread over two question types are also reported together.
    const spread = readLongMemEval([
      lmeItem({ question_id: "a_abs", question_type: "multi-session" }),
      lmeItem({ question_id: "b_abs", question_type: "temporal-reasoning" }),
    ]);
    const both = qaReport(
      await runQa(spread, ports(scriptedAnswerModel(), judge), await options(await QaCache.open(null))),
    );
    assert.equal(both.conditions[0]!.cells["abstention (any category)"]!.n, 2);
    const loco = await runQa(
      locomo,
      ports(scriptedAnswerModel(), judge),
      await options(await QaCache.open(null)),
    );
    const report = qaReport(loco);
    const none = report.conditions[0]!;
    assert.equal(none.cells.all!.n, 4, "category 5 is not in all");
    assert.equal(none.cells.adversarial!.n, 1);
    assert.equal(none.cells.adversarial!.accuracy.mean, 1);
    assert.equal(none.cells.all!.accuracy.mean, 0);
    assert.match(qaMarkdown(report), /adversarial \(apart\)/);
  });

  it("builds the baselines: the whole conversation cut from its oldest turn to fit, or nothing", async () => {
    const transcript = locomo.conversations[0]!.transcript;
    const whole = fullContext(transcript, 10_000);
    assert.equal(whole.cut, 0);
    assert.equal(whole.shown.size, 5);
    assert.match(whole.text, /^Session 1 \(8 May 2023\):\nSam: I adopted a beagle/);
    const cut = fullContext(transcript, 40);
    assert.ok(cut.cut > 0 && cut.cut < 5, `cut ${cut.cut}`);
    assert.ok(cut.shown.has("conv-t:D2:2"), "the newest turn stays");
    assert.ok(!cut.shown.has("conv-t:D1:1"), "the oldest goes first");
    assert.match(cut.text, /oldest turns are left out/);
    const answer = scriptedAnswerModel();
    const run = await runQa(
      locomo,
      ports(answer, scriptedJudgeModel()),
      await options(await QaCache.open(null), {
        strategies: [],
        baselines: ["full-context", "no-memory"],
        contextWindow: ANSWER_RESERVE_TOKENS + 60,
      }),
    );
    const full = run.rows.filter((r) => r.condition === "full-context");
    assert.ok(full.every((r) => r.shown!.kept < r.shown!.total));
    assert.equal(full[0]!.evidence.found, 1, "of D1:1 and D2:1 only the newer is shown");
    const prompts = answer.calls.map((c) => c.messages.at(-1)!.content);
    assert.ok(
      prompts.some((p) => p.startsWith("Question:")),
      "no memory: the question alone",
    );
    assert.match(qaMarkdown(qaReport(run)), /did not fit the 1,084-token window/);
  });

  it("grades LongMemEval's types by their rules, and a rubric grade of the wrong length becomes an error row", async () => {
    const judge = scriptedJudgeModel();
    const types = ["knowledge-update", "temporal-reasoning", "single-session-preference"];
    const set = readLongMemEval(types.map((t, i) => lmeItem({ question_id: `t${i}`, question_type: t })));
    await runQa(
      set,
      ports(scriptedAnswerModel(), judge),
      await options(await QaCache.open(null), { strategies: [] }),
    );
    const systems = judge.calls.map((c) => c.messages[0]!.content);
    assert.ok(systems.some((x) => /newest value/.test(x)));
    assert.ok(systems.some((x) => /off by one/.test(x)));
    assert.ok(systems.some((x) => /describes what a good answer does/.test(x)));
    const short = new ScriptedChatModel(
      JSON.stringify({ points: [{ score: 1, reason: "ok" }], reason: "one point only" }),
    );
    const rubric: QaSet = {
      ...set,
      conversations: [
        {
          ...set.conversations[0]!,
          questions: [{ ...set.conversations[0]!.questions[0]!, rubric: ["a", "b"] }],
        },
      ],
    };
    const run = await runQa(
      rubric,
      ports(scriptedAnswerModel(), short),
      await options(await QaCache.open(null), { strategies: [] }),
    );
    assert.match(run.rows[0]!.error ?? "", /^grade failed/);
    assert.equal(short.calls.length, 3, "asked again twice, with the problem named");
    assert.match(short.calls[1]!.messages.at(-1)!.content, /exactly 2 points/);
    const md = qaMarkdown(qaReport(run));
    assert.match(md, /– \(1 errors\)/);
    assert.match(md, /1 of 1 rows have no grade/);
  });

  it("prices answers and grades exactly, and names a model it has no price for", async () => {
    const run = await runQa(
      locomo,
      ports(scriptedAnswerModel(), scriptedJudgeModel()),
      await options(await QaCache.open(null), { strategies: [] }),
    );
    const rows = run.rows;
    const tokens = (pick: "answer" | "judge", kind: "promptTokens" | "completionTokens") =>
      rows.reduce((n, r) => n + r.usage[pick][kind], 0);
    const expected = (tokens("answer", "promptTokens") * 2 + tokens("answer", "completionTokens") * 4) / 1e6;
    const report = qaReport(run, { prices: { "qa-answer": { input: 2, output: 4 } } });
    const cost = report.conditions[0]!.cost!;
    assert.ok(Math.abs(cost.total - expected) < 1e-12, `${cost.total} vs ${expected}`);
    assert.ok(Math.abs(cost.per100 - (100 * expected) / 5) < 1e-12);
    assert.ok(report.notes.some((n) => /no price for test:qa-judge/.test(n)));
  });

  it("keeps at most --concurrency calls in flight, and rows in the file's order", async () => {
    let inFlight = 0;
    let most = 0;
    const slow = new ScriptedChatModel(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return "Rex";
    });
    const run = await runQa(
      locomo,
      ports(slow, scriptedJudgeModel()),
      await options(await QaCache.open(null), { concurrency: 3, strategies: [] }),
    );
    assert.equal(most, 3);
    assert.deepEqual(
      run.rows.map((r) => r.questionId),
      locomo.conversations[0]!.questions.map((q) => q.id),
    );
  });
});

describe("QA lab against an OpenAI-compatible server", () => {
  it("waits out rate limits, keeps failed calls and unreadable grades as error rows, uncached", async () => {
    const limited = await startFakeOpenAI({ failWith: 429, failTimes: 2, answer: () => "Rex" });
    const garbage = await startFakeOpenAI({ answer: () => "I think it is fine, really." });
    const down = await startFakeOpenAI({ failWith: 500 });
    const slow = await startFakeOpenAI({ delayMs: 400, answer: () => "Rex" });
    try {
      const model = (url: string, maxRetries: number) =>
        new OpenAICompatibleChatModel({ baseURL: url, model: "m", maxRetries, timeoutMs: 5000 });
      const path = join(dir, "server.jsonl");
      const one: QaSet = limitQuestions(readLocomoQa([locomoSample()]), 2);
      const run = await runQa(
        one,
        ports(model(limited.url, 3), model(garbage.url, 0)),
        await options(await QaCache.open(path), { strategies: [], concurrency: 1 }),
      );
      assert.equal(limited.requests.length, 4, "two 429s, then both answers");
      assert.ok(run.rows.every((r) => r.answer === "Rex"));
      assert.ok(run.rows.every((r) => r.score === null && /^grade failed/.test(r.error ?? "")));
      assert.equal(garbage.requests.length, 6, "each grade tried three times (two repairs)");
      assert.equal(run.rows[0]!.usage.judge.calls, 3, "the failed grade's calls are counted");
      const cached = readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).type);
      assert.deepEqual(cached, ["answer", "answer"], "answers kept, failed grades not");
      const report = qaReport(run);
      assert.equal(report.conditions[0]!.cells.all!.errors, 2);
      const failed = await runQa(
        one,
        ports(model(down.url, 0), scriptedJudgeModel()),
        await options(await QaCache.open(null), { strategies: [] }),
      );
      assert.ok(failed.rows.every((r) => r.answer === null && /^answer failed: .*500/.test(r.error ?? "")));
      const late = await runQa(
        one,
        ports(
          new OpenAICompatibleChatModel({ baseURL: slow.url, model: "m", maxRetries: 0, timeoutMs: 100 }),
          scriptedJudgeModel(),
        ),
        await options(await QaCache.open(null), { strategies: [] }),
      );
      assert.ok(
        late.rows.every((r) => /^answer failed: .*did not answer in time/.test(r.error ?? "")),
        late.rows[0]!.error,
      );
    } finally {
      await Promise.all([limited.close(), garbage.close(), down.close(), slow.close()]);
    }
  });
});

describe("QA lab question selection", () => {
  const set = readLocomoQa([locomoSample("a"), locomoSample("b"), locomoSample("c")]);

  /** `n` questions of one category, ids `<category><i>`. */
  const questionsIn = (category: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${category}${i}`,
      category,
      question: "?",
      answer: "",
      evidence: [],
    }));

  it("gives uneven categories their share by largest remainder, and a small one at least one", () => {
    const uneven: QaSet = {
      format: "test",
      notes: [],
      conversations: [
        {
          id: "c",
          transcript: set.conversations[0]!.transcript,
          questions: [...questionsIn("big", 12), ...questionsIn("mid", 6), ...questionsIn("small", 1)],
        },
      ],
    };
    const count = (s: QaSet) => {
      const out: Record<string, number> = {};
      for (const q of s.conversations.flatMap((c) => c.questions))
        out[q.category] = (out[q.category] ?? 0) + 1;
      return out;
    };
    // 6 of 19: exact shares 3.79, 1.89, 0.32 -> 3 + 2 (largest remainders) + 0, then small takes one from big.
    assert.deepEqual(count(sampleQuestions(uneven, 6)), { big: 3, mid: 2, small: 1 });
    assert.deepEqual(count(sampleQuestions(uneven, 2)), { big: 1, mid: 1 }, "too few to go round: by share");
  });

  it("samples across categories in proportion, seeded, and limits in file order", () => {
    const five = sampleQuestions(set, 5, 3);
    const cats = five.conversations.flatMap((c) => c.questions.map((q) => q.category)).sort();
    assert.deepEqual(cats, ["adversarial", "multi-hop", "open-domain", "single-hop", "temporal"]);
    assert.deepEqual(sampleQuestions(set, 5, 3), five);
    assert.equal(sampleQuestions(set, 10, 3).conversations.flatMap((c) => c.questions).length, 10);
    const limited = limitQuestions(set, 7);
    assert.deepEqual(
      limited.conversations.map((c) => [c.id, c.questions.length]),
      [
        ["a", 5],
        ["b", 2],
      ],
    );
  });

  it("reads errata as an object or as lines, and names ids the file lacks", () => {
    assert.deepEqual([...parseErrata('{"x": 1}')], [["x", "1"]]);
    assert.deepEqual(
      [...parseErrata('{"question_id": "a:q1", "answer": "Leeds"}\n{"id": "zz", "answer": "?"}')],
      [
        ["a:q1", "Leeds"],
        ["zz", "?"],
      ],
    );
    const fixed = applyErrata(
      set,
      parseErrata('[{"id": "a:q2", "answer": "June 2023"}, {"id": "zz", "answer": "?"}]'),
    );
    assert.equal(fixed.changed, 0, "the same answer changes nothing");
    assert.deepEqual(fixed.unknown, ["zz"]);
    assert.throws(() => parseErrata("[{}]"), /needs "id"/);
    assert.deepEqual(
      [...parseErrata('{"id": "a:q3", "answer": "7 May 2023"}\n')],
      [["a:q3", "7 May 2023"]],
      "one JSON line",
    );
  });
});

describe("lab eval qa", () => {
  const lab = (...args: string[]) =>
    runLab(["eval", "qa", ...args], { env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" } });
  const locomoFile = join(dir, "locomo.json");
  writeFileSync(locomoFile, JSON.stringify([locomoSample()]));
  const lmeFile = join(dir, "lme.json");
  writeFileSync(
    lmeFile,
    JSON.stringify([lmeItem(), lmeItem({ question_id: "q2_abs", question: "What cat?" })]),
  );
  const beamDir = join(dir, "beam", "1");
  writeConversation(beamDir, beamChat(), beamProbing());

  for (const [name, file, questions] of [
    ["LoCoMo", locomoFile, 5],
    ["LongMemEval", lmeFile, 2],
    ["BEAM", beamDir, 7],
  ] as const)
    it(`runs a ${name} fixture end to end on the scripted engine`, async () => {
      const cache = join(dir, `${name}.jsonl`);
      const r = await lab(
        file,
        "--engine",
        "scripted",
        "--json",
        "--cache",
        cache,
        "--strategies",
        "none,carecall",
      );
      assert.equal(r.code, 0, r.stderr);
      const { report, rows } = JSON.parse(r.stdout);
      assert.equal(report.questions, questions);
      assert.deepEqual(
        report.conditions.map((c: { condition: string }) => c.condition),
        ["none", "carecall", "full-context", "no-memory"],
      );
      assert.equal(rows.length, questions * 4);
      assert.ok(rows.every((row: { score: number | null }) => row.score !== null));
      assert.ok(report.notes.some((n: string) => /count calls and tokens, not quality/.test(n)));
      if (name === "BEAM")
        assert.ok(
          rows.some((row: { score: number }) => row.score === 0.5),
          "rubric grades",
        );
      const again = await lab(
        file,
        "--engine",
        "scripted",
        "--cache",
        cache,
        "--strategies",
        "none,carecall",
        "--limit",
        "1",
      );
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /\| none \|.*\| 0 \+ 0 \(1 \+ 1 cached\)/);
    });

  it("writes a chart, prices the run, and refuses what it cannot do", async () => {
    const chart = join(dir, "qa.svg");
    const prices = JSON.stringify({
      "test:qa-answer": { input: 1, output: 2 },
      "test:qa-judge": { input: 1, output: 2 },
    });
    const r = await lab(
      locomoFile,
      "--engine",
      "scripted",
      "--no-cache",
      "--chart",
      chart,
      "--prices",
      prices,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(readFileSync(chart, "utf8"), /^<svg[\s\S]*95 % intervals[\s\S]*<\/svg>$/);
    assert.match(r.stdout, /\$0\.\d+ \(\$0\.\d+ per 100\)/);
    const noModel = await lab(locomoFile, "--no-cache");
    assert.equal(noModel.code, 3);
    assert.match(noModel.stderr, /needs an answer model/);
    const noJudge = await lab(
      locomoFile,
      "--no-cache",
      "--chat-url",
      "http://127.0.0.1:9/v1",
      "--chat-model",
      "m",
    );
    assert.equal(noJudge.code, 3);
    assert.match(noJudge.stderr, /separate judge/);
    const same = await lab(
      locomoFile,
      "--no-cache",
      "--chat-url",
      "http://127.0.0.1:9/v1",
      "--chat-model",
      "m",
      "--judge-url",
      "http://127.0.0.1:9/v1",
      "--judge-model",
      "m",
    );
    assert.equal(same.code, 3);
    assert.match(same.stderr, /The judge is the answer model/);
    const down = await lab(
      locomoFile,
      "--no-cache",
      "--limit",
      "1",
      "--strategies",
      "none",
      "--baselines",
      "off",
      "--retries",
      "0",
      "--chat-url",
      "http://127.0.0.1:9/v1",
      "--chat-model",
      "m",
      "--judge-url",
      "http://127.0.0.1:9/v2",
      "--judge-model",
      "j",
    );
    assert.notEqual(down.code, 0, "nothing graded is a failed run");
    assert.match(down.stderr, /Every question failed \(first: answer failed: Cannot reach/);
    const badBaseline = await lab(locomoFile, "--engine", "scripted", "--baselines", "oracle");
    assert.match(badBaseline.stderr, /Unknown baseline oracle/);
    const chatOnly = join(dir, "beam", "1", "chat.json");
    const notFolder = await lab(chatOnly, "--engine", "scripted", "--no-cache");
    assert.match(notFolder.stderr, /give its folder/);
  });
});

describe("eval qa's k per strategy", () => {
  it("gives theanine the paper's 3 timelines whatever -k says, unless --theanine-k", () => {
    assert.equal(recallK("theanine", { k: 10 }), 3);
    assert.equal(recallK("carecall", { k: 10 }), 10);
    assert.equal(recallK("theanine", { k: 10, theanineK: 5 }), 5);
  });
});
