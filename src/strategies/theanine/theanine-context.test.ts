/**
 * Theanine as its paper runs it: linking sees both memories' source turns, refinement sees the
 * recent dialogue, and recall asks with the dialogue context (the last utterance is an ablation).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { scopeA, session, turn } from "../../testing/rows.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import type { RecallContext } from "../strategy.js";
import { theanineStrategy } from "./theanine.js";

const story = {
  agent: "ava",
  sessions: [
    {
      id: "s1",
      at: "2024-03-01",
      partner: "sam",
      turns: [
        { speaker: "ava", text: "Where are you these days?" },
        { speaker: "sam", text: "I live in Leeds." },
      ],
    },
    {
      id: "s2",
      at: "2024-04-01",
      partner: "sam",
      turns: [
        { speaker: "ava", text: "Any news?" },
        { speaker: "sam", text: "I moved to Bristol." },
      ],
    },
  ],
};

describe("theanine linking sees where both memories came from", () => {
  it("shows the source turns of the older and the newer memory in the relation prompt", async () => {
    const chat = scriptedLlm({ relation: () => "Changed" });
    const mem = await testMemlane({ chat, strategy: "theanine" });
    await mem.ingest(story);
    const call = chat.calls.find((c) => c.options.jsonSchema?.name === "theanine.link-relations")!;
    const user = call.messages.at(-1)!.content;
    assert.match(user, /A \(1 March 2024\): Sam said: I live in Leeds\./);
    assert.match(user, /A was said in: "Sam: I live in Leeds\."/);
    assert.match(user, /B was said in: "Sam: I moved to Bristol\."/);
    // The scripted model still reads the pairs, so the edge carries its answer.
    const edges = await mem.store.listEdges(mem.scope("ava"));
    assert.deepEqual(
      edges.map((e) => e.type),
      ["Changed"],
    );
    await mem.close();
  });
});

describe("theanine refinement sees the recent dialogue", () => {
  it("passes several turns of both speakers to the refinement, newest last", async () => {
    const chat = scriptedLlm({ relation: () => "Changed" });
    const mem = await testMemlane({ chat, strategy: "theanine" });
    await mem.ingest(story);
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-06-01" });
    await s.turn("sam", "I keep thinking about my move.");
    await s.turn("ava", "Tell me more.");
    await s.turn("sam", "Was it the right call?");
    await s.reply();
    const refine = chat.calls.find((c) => c.options.jsonSchema?.name === "theanine.refine-timeline")!;
    const talk = refine.messages.at(-1)!.content.split("Current conversation:\n")[1]!;
    assert.deepEqual(talk.split("\n"), [
      "Sam: I keep thinking about my move.",
      "Ava: Tell me more.",
      "Sam: Was it the right call?",
    ]);
    await mem.close();
  });
});

describe("theanine recall query", () => {
  /** Runs recall with a retriever that records the query it is asked and finds nothing. */
  async function askedWith(query: "context" | "last-utterance" | undefined, dialogue = true) {
    const asked: string[] = [];
    const sess = session(scopeA, "s9");
    const turns = [
      turn(scopeA, sess.id, 0, "sam", "My sister Jo is visiting from Lisbon next week."),
      turn(scopeA, sess.id, 1, "ava", "How lovely!"),
      turn(scopeA, sess.id, 2, "sam", "What should we do together?"),
    ];
    const strategy = theanineStrategy(query ? { query } : {});
    await strategy.recall({
      scope: scopeA,
      query: "What should we do together?",
      session: sess,
      dialogue: dialogue ? turns : undefined,
      retriever: {
        specificationVersion: "v1",
        async searchMemories(_scope: unknown, q: { query: string }) {
          asked.push(q.query);
          return [];
        },
        async searchTurns() {
          return [];
        },
      },
    } as unknown as RecallContext);
    return asked[0];
  }

  it("asks with the partners' lines of the dialogue context by default, oldest first", async () => {
    // The agent's own reply is left out: replies are made of what it recalled before, and asking
    // with them pulled every later recall back to the same memories.
    assert.equal(
      await askedWith(undefined),
      "My sister Jo is visiting from Lisbon next week.\nWhat should we do together?",
    );
  });

  it("asks with the partner's last utterance in the ablation", async () => {
    assert.equal(await askedWith("last-utterance"), "What should we do together?");
  });

  it("falls back to the caller's query when there is no dialogue", async () => {
    assert.equal(await askedWith("context", false), "What should we do together?");
  });
});
