import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Turn } from "../../core/types.js";
import { HashEmbedder } from "../../models/hash-embedder.js";
import { atomicClauses } from "./atomic.js";
import { toSecondPerson, toThirdPerson } from "./perspective.js";
import { type OfflineSummarizerOptions, summarizeOffline } from "./summarize.js";

const at = "2024-03-02T18:00:00.000Z";
const turns = (lines: [string, string][]): Turn[] =>
  lines.map(([speaker, text], index) => ({
    id: `s1:${index + 1}`,
    tenant: "t",
    agent: "ava",
    sessionId: "s1",
    index,
    speaker,
    text,
    at,
    meta: {},
  }));

/** One session of `lines` between the agent Ava and `partner`, summarized offline. */
function summarize(partner: string, lines: [string, string][], options?: OfflineSummarizerOptions) {
  const input = { agent: "ava", partners: [partner], sessionId: "s1", at, turns: turns(lines) };
  return summarizeOffline(input, new HashEmbedder(), options);
}

/** Each sentence, said by `speaker` to `listener`, rewritten into the third person as expected. */
function rewrites(speaker: string, listener: string, cases: [said: string, expected: string][]) {
  for (const [said, expected] of cases) assert.equal(toThirdPerson(said, speaker, listener), expected);
}

describe("offline perspective rewriting", () => {
  it("turns first person into the speaker's name with verb agreement", () => {
    rewrites("Sam", "Ava", [
      ["I finally adopted the beagle!", "Sam finally adopted the beagle!"],
      ["I'm not vegetarian anymore.", "Sam is not vegetarian anymore."],
      ["I really love hiking with my dog.", "Sam really loves hiking with Sam's dog."],
      ["I live in Leeds and I've got two cats.", "Sam lives in Leeds and Sam has got two cats."],
      ["I don't eat meat.", "Sam doesn't eat meat."],
      ["I think you would love it.", "Sam thinks Ava would love it."],
    ]);
    rewrites("Mel", "Ava", [["I put this dress on yesterday.", "Mel put this dress on yesterday."]]);
  });

  it("conjugates a present verb in a sentence that also tells of the past", () => {
    rewrites("Sam", "Ava", [
      // The date sets the sentence in the past, but "work" can only be present.
      [
        "I started the new job on 15 March 2024, and I no longer work night shifts.",
        "Sam started the new job on 15 March 2024, and Sam no longer works night shifts.",
      ],
      ["I went there yesterday and I love it.", "Sam went there yesterday and Sam loves it."],
      // A verb whose past is spelled as its base stays past.
      ["I read that book yesterday.", "Sam read that book yesterday."],
    ]);
  });

  it("keeps a name after an object 'you' (a promise to the listener)", () => {
    rewrites("Ava", "Sam", [
      ["I'll send you my list of cafés this weekend.", "Ava will send Sam Ava's list of cafés this weekend."],
      ["I can show you Tom's photos.", "Ava can show Sam Tom's photos."],
    ]);
  });

  it("keeps the plural verb of a subject the speaker shares with someone", () => {
    rewrites("Ben", "Kai", [
      ["Claire and I have separated.", "Claire and Ben have separated."],
      ["My wife and I love hiking.", "Ben's wife and Ben love hiking."],
      ["You and I are friends.", "Kai and Ben are friends."],
      // "and I" that starts a clause of its own is still singular.
      ["I got home and I love it.", "Ben got home and Ben loves it."],
      ["Oh and I have a dog.", "Oh and Ben has a dog."],
      ["I like hiking, swimming and I run daily.", "Ben likes hiking, swimming and Ben runs daily."],
    ]);
    rewrites("Tom", "Kai", [["Dev and I'm off to Lisbon.", "Dev and Tom are off to Lisbon."]]);
  });

  it("reads a lower-case i as the speaker too", () => {
    rewrites("Sam", "Ava", [
      [
        "i drive my mom's minivan and im saving for a car",
        "Sam drives Sam's mom's minivan and Sam is saving for a car",
      ],
      ["and so did i", "and so did Sam"],
      // Not the pronoun: these stay as they are.
      ...["Bring snacks, i.e. crisps.", "Back from Hawai'i.", "See x.com/i/status", "Part i. of it"].map(
        (kept): [string, string] => [kept, kept],
      ),
    ]);
  });

  it("tells a statement back to its subject", () => {
    assert.equal(
      toSecondPerson("Sam is moving to Bristol with Sam's dog.", "Sam"),
      "you are moving to Bristol with your dog.",
    );
  });
});

describe("offline summarizer", () => {
  it("keeps durable facts and changes, drops greetings, questions and small talk", async () => {
    const statements = await summarize("sam", [
      ["ava", "Hi Sam! How are you?"],
      ["sam", "Hey! Good to see you."],
      ["sam", "I adopted a beagle called Biscuit yesterday and I work as a nurse in Leeds."],
      ["ava", "Wow, that's great!"],
      ["sam", "Thanks! Do you like dogs?"],
      ["sam", "I had toast for breakfast."],
    ]);
    const texts = statements.map((s) => s.text);
    assert.ok(
      texts.some((t) => /^Sam adopted a beagle called Biscuit on 1 March 2024/.test(t)),
      texts.join(" | "),
    );
    assert.ok(
      texts.every((t) => !/toast|Good to see|great/.test(t)),
      texts.join(" | "),
    );
    const beagle = statements.find((s) => s.text.includes("beagle"))!;
    assert.equal(beagle.about, "sam");
    assert.deepEqual(beagle.sourceTurns, ["s1:3"]);
    assert.equal(beagle.observedAt, at);
    assert.equal(
      beagle.attributes?.quote,
      "I adopted a beagle called Biscuit yesterday and I work as a nurse in Leeds.",
    );
  });

  it("gives a sentence that starts with a past-tense verb its dropped subject; requests are no facts", async () => {
    const statements = await summarize("ben", [
      ["ava", "Where are you staying these days?"],
      ["ben", "Rented a flat above a bakery in Chapel Allerton. Was a long week. Sprained, the doctor said."],
      [
        "ben",
        "Based in Leeds, my sister teaches maths. Attached is a photo of my kitchen. Been there twice.",
      ],
      ["ava", "Tell me a bit more about your new place."],
    ]);
    const texts = statements.map((s) => s.text);
    assert.ok(texts.includes("Ben rented a flat above a bakery in Chapel Allerton."), texts.join(" | "));
    // A past form the tagger reads as an imperative at the start ("Gave up…") is past too.
    const gaveUp = await summarize("ben", [["ben", "gave up the betting, deleted the app too"]]);
    assert.deepEqual(
      gaveUp.map((s) => s.text),
      ["Ben gave up the betting, deleted the app too."],
    );
    assert.ok(
      texts.every((t) => !/Ben (was a long week|sprained|based|attached|been)|^Tell/.test(t)),
      texts.join(" | "),
    );
  });

  it("reads a terse turn's fragments as the speaker's, and an emoji as a sentence's end", async () => {
    const statements = await summarize("ayasha", [
      ["ayasha", "morning ava. team leader at Redmesa. no longer at the food bank on saturdays."],
      ["ava", "How was the week?"],
      ["ayasha", "Crazy week at the office 😩 I have season tickets for Fluminense now ⚽"],
    ]);
    const texts = statements.map((s) => s.text);
    for (const expected of [
      "Ayasha is a team leader at Redmesa.",
      "Ayasha is no longer at the food bank on saturdays.",
      "Ayasha has season tickets for Fluminense now.",
    ])
      assert.ok(texts.includes(expected), `${expected} in: ${texts.join(" | ")}`);
    assert.ok(
      texts.every((t) => !/\p{Extended_Pictographic}|morning ava/iu.test(t)),
      texts.join(" | "),
    );
  });

  it("keeps a terse turn's verbless fragments as the speaker's own words, with the details after them", async () => {
    const statements = await summarize("aziz", [
      ["aziz", "fizzy drinks. 2 cans a day."],
      ["ava", "Noted. Lunch?"],
      // An answer to a question means what the question gives it: not a fact of its own.
      ["aziz", "kebab."],
      ["ava", "Enjoy."],
      ["aziz", "coeliac. diagnosed 2016."],
      ["aziz", "Paper round, mornings before school."],
      ["aziz", "moved. saigon now. district 3."],
      ["aziz", "finaly kicked the nail biting habit!! took 5 weeks"],
      ["aziz", "morning ava. good choice."],
      ["aziz", "renting in hanoi."],
      ["aziz", "i have a dog."],
      ["aziz", "also on metformin now."],
      ["aziz", "so tired."],
    ]);
    const texts = statements.map((s) => s.text);
    for (const expected of [
      "Aziz: fizzy drinks; 2 cans a day.",
      "Aziz: coeliac; diagnosed 2016.",
      "Aziz: Paper round, mornings before school.",
      "Aziz moved; saigon now; district 3.",
      "Aziz finally kicked the nail biting habit; took 5 weeks.",
      "Aziz is renting in hanoi.",
      "Aziz has a dog.",
      "Aziz is on metformin now.",
    ])
      assert.ok(texts.includes(expected), `${expected} in: ${texts.join(" | ")}`);
    assert.ok(
      texts.every((t) => !/kebab|morning ava|good choice|tired/i.test(t)),
      texts.join(" | "),
    );
  });

  it("keeps a thing named unasked in a few words, a dropped 'my', and a name joined as a detail", async () => {
    const statements = await summarize("bea", [
      ["bea", "on keto."],
      ["ava", "ok."],
      ["bea", "audible subscription."],
      ["ava", "noted."],
      ["bea", "car's a nissan leaf."],
      ["ava", "ok."],
      ["bea", "twin boys. Oskar and Emil."],
      ["ava", "ok."],
      ["bea", "no more vaping."],
      ["ava", "good."],
      // One word is a mood as often as a thing.
      ["bea", "traffic."],
      ["ava", "ugh."],
      ["bea", "that's a shame."],
      ["ava", "hm."],
      ["bea", "good question."],
      ["ava", "ok."],
      ["bea", "weather's a joke."],
    ]);
    const texts = statements.map((s) => s.text);
    for (const expected of [
      "Bea is on keto.",
      "Bea: audible subscription.",
      "Bea's car's a nissan leaf.",
      "Bea: twin boys; Oskar and Emil.",
      "Bea: no more vaping.",
    ])
      assert.ok(texts.includes(expected), `${expected} in: ${texts.join(" | ")}`);
    assert.ok(
      texts.every((t) => !/traffic|shame|question|weather/i.test(t)),
      texts.join(" | "),
    );
  });

  it("keeps a change told by a verb of stopping or changing, a terse 'thing: done' note, and what holds 'these days'", async () => {
    const statements = await summarize("cy", [
      ["cy", "Manicures: ditched. Nails need a rest."],
      ["ava", "Fair."],
      ["cy", "I cancelled the fortnightly massages to save money."],
      ["ava", "Sensible."],
      ["cy", "Lunch is a salad at my desk these days."],
      ["ava", "Good for you."],
      ["cy", "Packed in the choir last week."],
    ]);
    const texts = statements.map((s) => s.text);
    for (const expected of [
      /^Cy: Manicures: ditched\.$/,
      /^Cy cancelled the fortnightly massages/,
      /^Lunch is a salad at Cy's desk these days\.$/,
      /^Cy packed in the choir/,
    ])
      assert.ok(
        texts.some((t) => expected.test(t)),
        `${expected} in: ${texts.join(" | ")}`,
      );
    // Lunch with no word of a lasting state stays trivia.
    const trivia = await summarize("cy", [["cy", "Lunch is a salad at my desk."]]);
    assert.deepEqual(
      trivia.map((s) => s.text),
      [],
    );
  });

  it("keeps no wish, request or remark of the agent's as a fact about the agent", async () => {
    const statements = await summarize("cy", [
      ["cy", "I finally got a new phone."],
      ["ava", "Enjoy the new screen."],
      ["cy", "Switched jobs too."],
      ["ava", "Good move."],
      ["cy", "Off to a party tonight."],
      ["ava", "Have fun at the party! I went to one in Leeds last week."],
    ]);
    const agent = statements.filter((s) => s.about === "ava").map((s) => s.text);
    assert.ok(!agent.some((t) => /enjoy|good move|has fun/i.test(t)), agent.join(" | "));
    assert.ok(
      agent.some((t) => /Ava went to one in Leeds/.test(t)),
      agent.join(" | "),
    );
  });

  it("gives a pronoun its person, or keeps its clause joined to the one that says what it stands for", async () => {
    const statements = await summarize("caroline", [
      ["caroline", "My daughter painted this. She loves watercolours."],
      ["ava", "And the parade?"],
      ["caroline", "I went to the pride parade last week. It made me think about how far I've come."],
    ]);
    const texts = statements.map((s) => s.text);
    assert.ok(texts.includes("Caroline's daughter loves watercolours."), texts.join(" | "));
    assert.ok(
      texts.some((t) => /pride parade.*; it made Caroline think about how far Caroline has come/.test(t)),
      texts.join(" | "),
    );
    assert.ok(
      texts.every((t) => !/^(?:she|it)\b/i.test(t)),
      texts.join(" | "),
    );
  });

  it("merges near-duplicates and keeps their sources together", async () => {
    const statements = await summarize("sam", [
      ["sam", "I started a new job as a nurse in Leeds."],
      ["sam", "I started a new job as a nurse in Leeds!"],
    ]);
    assert.equal(statements.length, 1);
    assert.deepEqual(statements[0]!.sourceTurns, ["s1:1", "s1:2"]);
  });

  it("writes about the agent too, and caps statements per speaker", async () => {
    const many = Array.from({ length: 12 }, (_, i): [string, string] => [
      "sam",
      `I started learning the ${["piano", "cello", "banjo", "harp", "oboe", "flute", "tuba", "drums", "sitar", "organ", "violin", "lute"][i]} in ${["London", "Oslo", "Lima", "Cairo", "Quito", "Perth", "Delhi", "Rome", "Paris", "Kyiv", "Baku", "Riga"][i]}.`,
    ]);
    const statements = await summarize(
      "sam",
      [...many, ["ava", "I moved my office to Paris last year and I love the city."]],
      { maxPerSpeaker: 4 },
    );
    assert.equal(statements.filter((s) => s.about === "sam").length, 4);
    assert.ok(
      statements.some((s) => s.about === "ava" && /^Ava moved Ava's office to Paris in 2023/.test(s.text)),
    );
  });
});

describe("atomic statements", () => {
  it("splits coordinated clauses and named companions, and leaves lists and plain phrases whole", () => {
    assert.deepEqual(atomicClauses("I live in Leeds with my dog Biscuit."), [
      "I live in Leeds.",
      "I have a dog called Biscuit.",
    ]);
    assert.deepEqual(atomicClauses("I moved to Bristol last month and started a new job at the library."), [
      "I moved to Bristol last month.",
      "I started a new job at the library.",
    ]);
    assert.deepEqual(atomicClauses("I'm vegetarian; my husband Tom eats fish."), [
      "I'm vegetarian.",
      "My husband Tom eats fish.",
    ]);
    assert.deepEqual(atomicClauses("I like cats and dogs."), ["I like cats and dogs."]);
    assert.deepEqual(atomicClauses("I live with my parents in Croydon."), [
      "I live with my parents in Croydon.",
    ]);
  });

  it("a session's compound sentence becomes two memories, so replacing the home keeps the dog", async () => {
    const statements = await summarize("sam", [
      ["ava", "How are things?"],
      ["sam", "I live in Leeds with my dog Biscuit and I work as a nurse."],
    ]);
    const texts = statements.map((s) => s.text);
    assert.ok(texts.includes("Sam lives in Leeds."), texts.join(" | "));
    assert.ok(texts.includes("Sam has a dog called Biscuit."), texts.join(" | "));
    assert.ok(texts.includes("Sam works as a nurse."), texts.join(" | "));
  });
});
