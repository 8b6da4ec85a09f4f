/**
 * Prompts sized to the model's window, end to end: the command line against a loopback
 * OpenAI-compatible server, a 60,000-character session, and the window given by --model-context
 * (or left to the default for an unknown local model). Every request the server gets is counted.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { estimateMessageTokens } from "../../src/models/chat-model.js";
import { startFakeOpenAI } from "../fixtures/fake-openai-server.js";
import { runCli } from "../fixtures/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-window-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** One session of about 60,000 characters: Sam tells a numbered fact in every other turn. */
const transcript = join(dir, "long.json");
const turns: { speaker: string; text: string }[] = [];
for (let n = 0, total = 0; total < 60_000; n++) {
  const text =
    n % 2 === 0
      ? `Go on about fact ${n / 2}; how did it come about, and what happened after that?`
      : `Fact ${(n - 1) / 2}: my neighbour number ${(n - 1) / 2} keeps bees on the roof and sells the honey at the harbour market.`;
  turns.push({ speaker: n % 2 === 0 ? "ava" : "sam", text });
  total += text.length;
}
writeFileSync(
  transcript,
  JSON.stringify({ agent: "ava", sessions: [{ id: "s1", at: "2024-05-02T10:00", partner: "sam", turns }] }),
);
const facts = turns.filter((t) => t.speaker === "sam").length;

type Message = { role: "system" | "user" | "assistant"; content: string };

/** What a cooperative model answers: one statement per line of Sam's in a summary, nothing else. */
function answer(body: Record<string, unknown>): string {
  const messages = body.messages as Message[];
  const user = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  const step = (body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  if (step === "summarize") {
    const statements = [...user.matchAll(/^\[(\d+)\] Sam: (Fact \d+: .*)$/gm)].map((m) => ({
      about: "sam",
      text: `Sam said: ${m[2]!.slice(0, 120)}`,
      turns: [Number(m[1])],
    }));
    return JSON.stringify({ statements });
  }
  return JSON.stringify({ items: [] });
}

async function ingest(window: string[]) {
  const fake = await startFakeOpenAI({ answer });
  const db = join(dir, `window-${window.join("") || "default"}.db`);
  try {
    const r = await runCli(
      [
        "ingest",
        transcript,
        "--strategy",
        "accumulate",
        "--db",
        db,
        "--embedder",
        "hash",
        "--chat-url",
        fake.url,
        "--chat-model",
        "local-model",
        ...window,
        "--json",
      ],
      { env: { ...process.env, NO_COLOR: "1" } },
    );
    const mem = await openMemlane({ store: db, embedder: "hash" });
    const texts = (await mem.memories("ava")).map((m) => m.text).join("\n");
    await mem.close();
    return {
      code: r.code,
      stderr: r.stderr,
      prompts: fake.requests
        .filter((q) => q.path === "/chat/completions")
        .map((q) => estimateMessageTokens(q.body.messages as Message[])),
      memories: texts,
    };
  } finally {
    await fake.close();
  }
}

describe("prompts sized to the model's window (loopback server)", () => {
  for (const [label, flags, window] of [
    ["--model-context 8192", ["--model-context", "8192"], 8192],
    ["the 4,096-token default for an unknown local model", [], 4096],
  ] as const) {
    it(`sends no prompt over the window with ${label}, and the statements of every part land`, async () => {
      const r = await ingest([...flags]);
      assert.equal(r.code, 0, r.stderr);
      // The engine keeps a quarter of the window (at most 2,048 tokens) for the answer.
      const room = Math.min(2048, window / 4);
      assert.ok(r.prompts.length > 2, `${r.prompts.length} requests`);
      for (const tokens of r.prompts)
        assert.ok(tokens <= window - room, `a prompt of ${tokens} tokens for a window of ${window}`);
      const kept = new Set([...r.memories.matchAll(/Fact (\d+):/g)].map((m) => Number(m[1])));
      assert.equal(kept.size, facts, "a statement from every part of the session");
    });
  }
});
