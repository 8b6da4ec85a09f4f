import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { runLab } from "../../test/fixtures/run-cli.js";
import { loadCurrencySet, parseCurrencySet } from "../eval/currency/dataset.js";
import { evaluateCurrency, scoreHits } from "../eval/currency/evaluate.js";
import { currencyMarkdown } from "../eval/currency/markdown.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-currency-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Two conversations of two sessions, three partner turns each: raw top 3 always hold every partner turn. */
const conversations = [
  {
    id: "k1",
    agent: "ava",
    sessions: [
      {
        id: "k1-s1",
        at: "2024-01-05T10:00",
        partner: "maya",
        turns: [
          { id: "k1-s1-t1", speaker: "ava", text: "How are things?" },
          { id: "k1-s1-t2", speaker: "maya", text: "I play bass in a band called Red Kites." },
          { id: "k1-s1-t3", speaker: "maya", text: "My sister Nora grew up with me in Tulsa." },
        ],
      },
      {
        id: "k1-s2",
        at: "2024-03-05T10:00",
        partner: "maya",
        turns: [{ id: "k1-s2-t1", speaker: "maya", text: "Quit the Kites; drumming for Blue Owls instead." }],
      },
    ],
  },
  {
    id: "k2",
    agent: "kai",
    sessions: [
      {
        id: "k2-s1",
        at: "2024-02-01T09:00",
        partner: "tom",
        turns: [
          { id: "k2-s1-t1", speaker: "tom", text: "I drive an old blue minivan." },
          { id: "k2-s1-t2", speaker: "tom", text: "Peanuts make me ill, always have." },
        ],
      },
      {
        id: "k2-s2",
        at: "2024-05-01T09:00",
        partner: "tom",
        turns: [{ id: "k2-s2-t1", speaker: "tom", text: "Sold the minivan, got a red hatchback." }],
      },
    ],
  },
];

const questions = [
  {
    conv: "k1",
    question: "Which band does Maya play bass in?",
    asked_at: "2024-04-01T10:00",
    kind: "current",
    gold_turns: ["k1-s2-t1"],
    stale_turns: ["k1-s1-t2"],
  },
  {
    conv: "k1",
    question: "Where did Maya and Nora grow up?",
    asked_at: "2024-04-01T10:00",
    kind: "stable",
    gold_turns: ["k1-s1-t3"],
  },
  {
    conv: "k2",
    question: "What colour is the hatchback Tom got?",
    asked_at: "2024-06-01T10:00",
    kind: "current",
    gold_turns: ["k2-s2-t1"],
    stale_turns: ["k2-s1-t1"],
  },
  {
    conv: "k2",
    question: "What did Tom drive before the hatchback?",
    asked_at: "2024-06-01T10:00",
    kind: "past",
    gold_turns: ["k2-s1-t1", "k2-s2-t1"],
  },
];

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join("\n");

describe("eval currency", () => {
  it("scores hit@3 through source turns and stale-first only when no gold source is with it", () => {
    const q = { gold: ["g"], stale: ["s"] };
    assert.deepEqual(scoreHits([{ sourceTurns: ["s"] }, { sourceTurns: ["x"] }, { sourceTurns: ["g"] }], q), {
      hit: true,
      staleFirst: true,
    });
    assert.deepEqual(scoreHits([{ sourceTurns: ["s", "g"] }], q), { hit: true, staleFirst: false });
    assert.deepEqual(
      scoreHits(
        [{ sourceTurns: ["x"] }, { sourceTurns: ["x"] }, { sourceTurns: ["x"] }, { sourceTurns: ["g"] }],
        q,
      ),
      {
        hit: false,
        staleFirst: false,
      },
    );
    assert.deepEqual(scoreHits([], q), { hit: false, staleFirst: false });
  });

  it("splits by conversation (first half tune) and tallies per kind and split", async () => {
    const set = parseCurrencySet(JSON.stringify(conversations), jsonl(questions));
    assert.deepEqual(
      set.conversations.map((c) => [c.id, c.partner, c.split]),
      [
        ["k1", "maya", "tune"],
        ["k2", "tom", "test"],
      ],
    );
    const embedder = new HashEmbedder();
    const report = await evaluateCurrency(set, ["none", "accumulate"], {
      embedder,
      cognition: () => new OfflineCognition(embedder),
    });
    assert.equal(report.questions, 4);
    const none = report.rows.find((r) => r.strategy === "none")!;
    assert.equal(none.units, "turns");
    // Every conversation has at most three partner turns: raw top 3 holds every gold turn.
    assert.deepEqual(none.cells.all.all, {
      questions: 4,
      hits: 4,
      staleFirst: none.answers.filter((a, i) => a.staleFirst && questions[i]!.kind === "current").length,
    });
    assert.deepEqual(
      [none.cells.tune.all.questions, none.cells.test.all.questions, none.cells.test.past.questions],
      [2, 2, 1],
    );
    assert.equal(none.cells.tune.stable.hits, 1);
    for (const row of report.rows) {
      // The cells are the answers, added up.
      const current = row.answers.filter((_, i) => questions[i]!.kind === "current");
      assert.equal(row.cells.all.current.hits, current.filter((a) => a.hit).length);
      assert.equal(row.cells.all.current.staleFirst, current.filter((a) => a.staleFirst).length);
      assert.equal(row.cells.all.stable.staleFirst, 0, "only current questions count stale-first");
      assert.equal(
        row.cells.tune.all.hits + row.cells.test.all.hits,
        row.answers.filter((a) => a.hit).length,
      );
    }
    const md = currencyMarkdown(report);
    assert.match(md, /### tune \(2 questions: 1 current, 1 stable, 0 past\)/);
    assert.match(md, /\| none \| turns \| 100\.0 % \|/);
  });

  it("names every problem in a bad set", () => {
    const bad = [
      { ...questions[0], gold_turns: ["k1-s9-t9"] },
      { ...questions[1], stale_turns: ["k1-s1-t2"] },
      { ...questions[2], conv: "k7" },
      { ...questions[3], kind: "later" },
    ];
    assert.throws(
      () => parseCurrencySet(JSON.stringify(conversations), `${jsonl(bad)}\nnot json`),
      (e: unknown) => {
        assert.ok(e instanceof InvalidInputError);
        const problems = (e.details as { problems: string[] }).problems;
        assert.equal(problems.length, 5);
        assert.match(
          problems.join("\n"),
          /which is no turn[\s\S]*only "current"[\s\S]*"k7" is not in[\s\S]*kind/,
        );
        return true;
      },
    );
    assert.throws(
      () => parseCurrencySet(JSON.stringify([{ ...conversations[0], id: undefined }]), jsonl(questions)),
      /needs a string "id"/,
    );
  });

  it("reads a directory, and the CLI has --help and a clear error for a bad directory", async () => {
    writeFileSync(join(dir, "conversations.json"), JSON.stringify(conversations));
    writeFileSync(join(dir, "questions.jsonl"), jsonl(questions));
    assert.equal((await loadCurrencySet(dir)).questions.length, 4);
    // The lab's command line (`npm run lab -- eval currency …`), run in this process.
    const run = (...args: string[]) =>
      runLab(["eval", "currency", ...args], {
        env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" },
      });
    const help = await run("--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--strategies/);
    const missing = await run(join(dir, "nowhere"));
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /No conversations\.json in .*nowhere/);
    const unknown = await run(dir, "--strategies", "none,telepathy");
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /Unknown strategy "telepathy"/);
  });
});
