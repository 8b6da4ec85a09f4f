import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../../test/fixtures/run-cli.js";
import { bindScript } from "./simulate-script.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-simulate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `memlane simulate …` in this process, as the command line would run it. */
function memlane(...args: string[]) {
  return runCli(args, { env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" } });
}

describe("memlane simulate", () => {
  it("binds $1, $2… to the agents and refuses speakers outside a session", () => {
    const raw = { sessions: [{ agents: ["$1", "$2"], turns: [{ speaker: "$2", text: "hi $1" }] }] };
    assert.equal(bindScript(raw, ["ava", "ben"]).sessions[0]!.turns![0]!.text, "hi ava");
    assert.throws(
      () =>
        bindScript({ sessions: [{ agents: ["$1", "$2"], turns: [{ speaker: "$3", text: "x" }] }] }, [
          "a",
          "b",
          "c",
        ]),
      /speaker "c" is not in the session/,
    );
    assert.throws(
      () => bindScript({ sessions: [{ agents: ["$1", "$2"] }] }, ["a", "b"]),
      /turns or an opener/,
    );
  });

  it("plays scripted and agent-driven sessions; each agent keeps its own egocentric memory", async () => {
    const script = join(dir, "script.json");
    writeFileSync(
      script,
      JSON.stringify({
        sessions: [
          {
            agents: ["$1", "$2"],
            at: "2025-01-01",
            turns: [
              { speaker: "$2", text: "My violin recital is on 3 March." },
              { speaker: "$1", text: "I will bring flowers to your recital." },
            ],
          },
          {
            agents: ["$1", "$2", "$3"],
            at: "2025-03-10",
            opener: { speaker: "$3", text: "How was the violin recital?" },
          },
        ],
      }),
    );
    const r = await memlane(
      "simulate",
      "--agents",
      "ava,ben,cy",
      "--script",
      script,
      "--engine",
      "scripted",
      "--turns",
      "2",
      "--json",
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      sessions: { turns: { speaker: string; text: string }[] }[];
      agents: { agent: string; memories: { about: string; text: string }[]; usage: { calls: number } }[];
    };
    // Session 2: the opener, then ava and ben reply in turn from their own memories.
    assert.deepEqual(
      out.sessions[1]!.turns.map((t) => t.speaker),
      ["cy", "ava", "ben"],
    );
    // Each recalls the recital from its own side: what Ben told Ava, what Ben said himself.
    assert.match(out.sessions[1]!.turns[1]!.text, /I remember this: .*Ben told me: My violin recital/);
    assert.match(out.sessions[1]!.turns[2]!.text, /I remember this: .*I said: My violin recital/);
    const of = (agent: string) => out.agents.find((a) => a.agent === agent)!;
    // The same first session, remembered from each side.
    assert.ok(
      of("ava").memories.some(
        (m) => m.about === "ben" && m.text === "Ben told me: My violin recital is on 3 March.",
      ),
    );
    assert.ok(
      of("ben").memories.some(
        (m) => m.about === "ben" && m.text === "I said: My violin recital is on 3 March.",
      ),
    );
    assert.ok(
      of("cy").memories.every((m) => !/violin recital is on/.test(m.text)),
      "cy heard it only as Ava's report, which is filed under nobody",
    );
    assert.ok(of("ava").usage.calls > 0);
  });

  it("refuses fewer than two agents", async () => {
    const r = await memlane("simulate", "--agents", "ava");
    assert.equal(r.code, 3);
    assert.match(r.stderr, /at least two agents/);
  });

  it("refuses a script that is not JSON, and an unknown engine, with a typed error", async () => {
    const bad = join(dir, "bad-script.json");
    writeFileSync(bad, "{ sessions: [");
    const r = await memlane("simulate", "--agents", "ava,ben", "--script", bad);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /bad-script\.json is not valid JSON/);
    const e = await memlane("simulate", "--agents", "ava,ben", "--engine", "gpt");
    assert.equal(e.code, 3, e.stderr);
    assert.match(e.stderr, /--engine must be offline, scripted or llm/);
  });

  it("exits with the failure's code, not 0, when the agents' consolidations failed", async () => {
    const { startFakeOpenAI } = await import("../../../test/fixtures/fake-openai-server.js");
    const fake = await startFakeOpenAI({ answer: () => "not JSON at all" });
    try {
      const r = await memlane(
        "simulate",
        "--agents",
        "ava,ben,cy",
        "--sessions",
        "1",
        "--engine",
        "llm",
        "--chat-url",
        fake.url,
        "--chat-model",
        "m",
        "--model-retries",
        "0",
      );
      assert.equal(r.code, 8, r.stderr);
      assert.match(r.stderr, /of \d+ agents' consolidations and steps failed/);
    } finally {
      await fake.close();
    }
  });
});
