import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testMemlane } from "../../test/fixtures/engine.js";
import type { Memlane } from "../engine/memlane.js";
import { carecallStrategy } from "../strategies/carecall/carecall.js";
import { scriptedLlm } from "../testing/scripted-llm.js";
import { PAST_EVENT_SHARE } from "./history-recall.js";

/** One statement per partner turn, as the scripted summarizer writes it. */
const SUMMARY: Record<string, string> = {
  "I live in Leeds.": "Sam lives in Leeds.",
  "I have a cold.": "Sam has a cold.",
  "I have a beagle.": "Sam has a beagle.",
  "I moved to Bristol.": "Sam moved to Bristol.",
  "My cold is gone.": "Sam's cold is gone.",
};

/** What the scripted pair operator decides for (memory, summary): everything else is APPEND. */
const LABEL: Record<string, string> = {
  "Sam lives in Leeds.|Sam moved to Bristol.": "REPLACE",
  "Sam has a cold.|Sam's cold is gone.": "DELETE",
};

const transcript = {
  agent: "ava",
  sessions: [
    {
      id: "s1",
      at: "2024-03-01T10:00",
      partner: "sam",
      turns: [
        { speaker: "sam", text: "I live in Leeds." },
        { speaker: "sam", text: "I have a cold." },
        { speaker: "sam", text: "I have a beagle." },
      ],
    },
    {
      id: "s2",
      at: "2024-04-01T10:00",
      partner: "sam",
      turns: [
        { speaker: "sam", text: "I moved to Bristol." },
        { speaker: "sam", text: "My cold is gone." },
      ],
    },
  ],
};

/**
 * A carecall store with `transcript` ingested by a scripted model: `said` gives each partner
 * turn's statement, `labels` the operator's label for "memory|summary" (APPEND otherwise).
 */
async function scriptedStore(
  transcript: Parameters<Memlane["ingest"]>[0],
  said: Record<string, string>,
  labels: Record<string, string> = {},
): Promise<Memlane> {
  const chat = scriptedLlm({
    summary: (_speaker, text) => said[text] ?? null,
    pairLabel: (memory, summary) => labels[`${memory}|${summary}`] ?? "APPEND",
  });
  // The hashing embedder is lexical: compare every pair so the scripted operator sees them all.
  const mem = await testMemlane({ chat, strategy: carecallStrategy({ minCosine: -1, candidates: 100 }) });
  assert.equal((await mem.ingest(transcript)).failed, 0);
  return mem;
}

describe("recall that knows history (carecall, scripted model)", () => {
  let mem: Memlane;
  before(async () => {
    mem = await scriptedStore(transcript, SUMMARY, LABEL);
    const superseded = (await mem.memories("ava", { status: "superseded" })).map((m) => m.text).sort();
    assert.deepEqual(superseded, ["Sam has a cold.", "Sam lives in Leeds.", "Sam's cold is gone."]);
  });
  after(() => mem.close());

  it("answers a 'before' question with the superseded version first, then its successor", async () => {
    const recall = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "Where did Sam live before Bristol?",
    });
    assert.equal(recall.temporal, "past");
    const [first, second] = recall.hits;
    assert.equal(first!.text, "Sam lives in Leeds.");
    assert.equal(first!.status, "past");
    assert.equal(second!.text, "Sam moved to Bristol.");
    assert.equal(second!.status, "current");
    assert.deepEqual(
      first!.chain!.map((v) => [v.text, v.status, v.observedAt.slice(0, 10), v.invalidAt?.slice(0, 10)]),
      [
        ["Sam lives in Leeds.", "past", "2024-03-01", "2024-04-01"],
        ["Sam moved to Bristol.", "current", "2024-04-01", undefined],
      ],
    );
    assert.deepEqual(second!.chain, first!.chain);
  });

  it("answers a 'still' question with what holds now first: the closing statement, then the state it ended", async () => {
    const recall = await mem.recall({ agent: "ava", about: "sam", query: "Is Sam still ill with a cold?" });
    assert.equal(recall.temporal, "still");
    const [first, second] = recall.hits;
    assert.equal(first!.text, "Sam's cold is gone.");
    assert.equal(first!.status, "current", "a retired closing statement with nothing after it holds now");
    assert.equal(second!.text, "Sam has a cold.");
    assert.equal(second!.status, "past");
    assert.deepEqual(
      first!.chain!.map((v) => v.status),
      ["past", "current"],
    );
  });

  it("leaves ordinary questions to active memory, every hit marked current", async () => {
    const recall = await mem.recall({ agent: "ava", about: "sam", query: "Where does Sam live?" });
    assert.equal(recall.temporal, undefined);
    assert.ok(recall.hits.length > 0);
    for (const h of recall.hits) {
      assert.equal(h.status, "current");
      assert.equal(h.chain, undefined);
      assert.equal(h.memory!.status, "active");
    }
    const turns = await mem.recall({ agent: "ava", about: "sam", query: "Leeds", units: "turns" });
    assert.equal(turns.hits[0]!.status, undefined, "turns carry no status");
  });
});

describe("recall that knows history, without a version chain", () => {
  // The operator keeps both jobs (everything APPEND, and no word of change for the rules to read):
  // only the anchor's date says which came first.
  const jobs = {
    agent: "ava",
    sessions: [
      {
        id: "j1",
        at: "2024-01-10T10:00",
        partner: "sam",
        turns: [{ speaker: "sam", text: "I work at a bank." }],
      },
      {
        id: "j2",
        at: "2024-05-10T10:00",
        partner: "sam",
        turns: [{ speaker: "sam", text: "I also work freelance." }],
      },
    ],
  };
  const said: Record<string, string> = {
    "I work at a bank.": "Sam works at a bank.",
    "I also work freelance.": "Sam also works freelance.",
  };
  let mem: Memlane;
  before(async () => {
    mem = await scriptedStore(jobs, said);
    assert.equal((await mem.memories("ava", { status: "active" })).length, 2);
  });
  after(() => mem.close());

  it("puts what was said before the anchor first, though the later memory shares more of the question's words", async () => {
    const recall = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "Where did Sam work before he went freelance?",
    });
    assert.equal(recall.temporal, "past");
    assert.deepEqual(
      recall.hits.map((h) => h.text),
      ["Sam works at a bank.", "Sam also works freelance."],
    );
    const whole = await mem.recall({ agent: "ava", about: "sam", query: "Did Sam work freelance?" });
    assert.equal(
      whole.hits[0]!.text,
      "Sam also works freelance.",
      "the words alone rank the later job first",
    );
  });

  it("measures raw turns from the anchor too", async () => {
    const question = "Where did Sam work before he went freelance?";
    const turns = await mem.recall({ agent: "ava", about: "sam", query: question, units: "turns" });
    assert.equal(turns.temporal, "past");
    assert.deepEqual(
      turns.hits.map((h) => h.text),
      ["I work at a bank.", "I also work freelance."],
    );
    const plain = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "Where does Sam work freelance?",
      units: "turns",
    });
    assert.equal(
      plain.hits[0]!.text,
      "I also work freelance.",
      "an ordinary question keeps the ranker's order",
    );
  });
});

describe("recall that knows history: a while clause picks the version that says it", () => {
  const said: Record<string, string> = {
    "I run about 15 km a week.": "Sam runs about 15 km a week.",
    "I'm training for a half marathon, so 30 km a week now.":
      "Sam is training for a half marathon at 30 km a week.",
    "I'm back to 20 km a week.": "Sam is back to 20 km a week.",
  };
  const replaces: Record<string, string> = {
    "Sam runs about 15 km a week.|Sam is training for a half marathon at 30 km a week.": "REPLACE",
    "Sam is training for a half marathon at 30 km a week.|Sam is back to 20 km a week.": "REPLACE",
  };
  const runs = {
    agent: "ava",
    sessions: Object.keys(said).map((text, i) => ({
      id: `r${i + 1}`,
      at: `2024-0${i + 1}-10T10:00`,
      partner: "sam",
      turns: [{ speaker: "sam", text }],
    })),
  };
  let mem: Memlane;
  before(async () => {
    mem = await scriptedStore(runs, said, replaces);
    assert.equal((await mem.memories("ava", { status: "superseded" })).length, 2);
  });
  after(() => mem.close());

  it("answers with the version of the time the clause names, then the current one", async () => {
    const recall = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "How far was Sam running each week while he trained for the half marathon?",
    });
    assert.equal(recall.temporal, "past");
    assert.equal(recall.hits[0]!.text, "Sam is training for a half marathon at 30 km a week.");
    assert.equal(recall.hits[0]!.status, "past");
    assert.equal(recall.hits[1]!.text, "Sam is back to 20 km a week.");
  });
});

describe("recall of an event whose memory a later statement replaced", () => {
  let mem: Memlane;
  before(async () => {
    mem = await scriptedStore(
      {
        agent: "ava",
        sessions: [
          {
            id: "s1",
            at: "2024-05-08T10:00",
            partner: "sam",
            turns: [
              { speaker: "sam", text: "I went to a support group yesterday." },
              { speaker: "sam", text: "I have a beagle." },
            ],
          },
          {
            id: "s2",
            at: "2024-06-01T10:00",
            partner: "sam",
            turns: [{ speaker: "sam", text: "The support group made me feel accepted." }],
          },
        ],
      },
      {
        "I went to a support group yesterday.": "Sam went to a support group on 7 May 2024.",
        "I have a beagle.": "Sam has a beagle.",
        "The support group made me feel accepted.": "The support group made Sam feel accepted.",
      },
      { "Sam went to a support group on 7 May 2024.|The support group made Sam feel accepted.": "REPLACE" },
    );
    const superseded = (await mem.memories("ava", { status: "superseded" })).map((m) => m.text);
    assert.deepEqual(superseded, ["Sam went to a support group on 7 May 2024."]);
  });
  after(() => mem.close());

  it("answers a question about the event with the past version too, marked past, its chain telling what replaced it", async () => {
    const recall = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "When did Sam go to the support group?",
    });
    assert.equal(recall.temporal, undefined, "an event question is an ordinary recall");
    const went = recall.hits.find((h) => h.text === "Sam went to a support group on 7 May 2024.");
    assert.ok(went, "the replaced memory of the event is recalled");
    assert.equal(went.status, "past");
    // The past version carries its chain, so a reader learns what replaced it; the recall is not
    // reordered into chains (the question asks what happened, not how a fact changed).
    assert.deepEqual(
      went.chain?.map((v) => [v.text, v.status]),
      [
        ["Sam went to a support group on 7 May 2024.", "past"],
        ["The support group made Sam feel accepted.", "current"],
      ],
    );
    assert.equal(went.explanation.pastShare, PAST_EVENT_SHARE);
    assert.ok(
      recall.hits.some(
        (h) => h.text === "The support group made Sam feel accepted." && h.status === "current",
      ),
    );
  });

  it("answers a question in the present from current memory only", async () => {
    const recall = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "How does Sam feel about the support group?",
    });
    assert.ok(recall.hits.length > 0);
    for (const h of recall.hits) assert.equal(h.status, "current");
  });
});
