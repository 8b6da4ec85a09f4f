/**
 * Model calls and tokens per session of `carecall` with LLM cognition, counted with a scripted
 * double that answers every step validly (one statement per partner utterance, APPEND for every
 * pair). Prompt tokens are estimated at four characters a token, as the double reports them.
 */
import { readFileSync } from "node:fs";
import { loadTranscripts } from "../src/engine/formats/load.js";
import { validateTranscript } from "../src/engine/formats/transcript.js";
import { openMemlane } from "../src/engine/memlane.js";
import type { ChatMessage } from "../src/models/chat-model.js";
import { ScriptedChatModel } from "../src/models/test-doubles.js";
import { positional } from "./args.js";

function answer(messages: ChatMessage[]): string {
  const system = messages[0]!.content;
  const user = messages.find((m) => m.role === "user")!.content;
  if (system.includes("worth knowing next time")) {
    const people = /People: (.*)/
      .exec(user)![1]!
      .split(", ")
      .map((p) => p.replace(/ \(.*\)$/, ""));
    const lines = [...user.matchAll(/^\[(\d+)\] ([^:]+): (.*)$/gm)];
    const partnerLines = lines
      .filter((l) => people.indexOf(l[2]!.toLowerCase()) !== 0 && l[2] !== people[0])
      .slice(0, 8);
    return JSON.stringify({
      statements: partnerLines.map((l) => ({
        about: people.find((p) => p.toLowerCase() === l[2]!.toLowerCase()) ?? people[1],
        text: `${l[2]} said: ${l[3]!.slice(0, 120)}`,
        turns: [Number(l[1])],
      })),
    });
  }
  if (system.includes("Decide what the memory keeps")) {
    const n = [...user.matchAll(/^(\d+)\. M:/gm)].length;
    return JSON.stringify({
      decisions: Array.from({ length: n }, (_, pair) => ({ pair, label: "APPEND", why: "different things" })),
    });
  }
  return JSON.stringify({ sentence: "merged" });
}

export async function benchCarecallLlm(args: string[]): Promise<void> {
  const file = positional(args, "");
  const transcripts = file
    ? await loadTranscripts(file)
    : [
        validateTranscript(
          JSON.parse(readFileSync(new URL("../data/demo-conversation.json", import.meta.url), "utf8")),
        ),
      ];
  const chat = new ScriptedChatModel(answer);
  const mem = await openMemlane({ store: ":memory:", strategy: "carecall", embedder: "hash", chat });
  console.log(
    "| agent | session | model calls | prompt tokens | completion tokens |\n| --- | --- | ---: | ---: | ---: |",
  );
  const totals = { sessions: 0, calls: 0, prompt: 0, completion: 0 };
  for (const t of transcripts) {
    await mem.ingest(t);
    const ops = await mem.store.listOperations(mem.scope(t.agent));
    for (const s of t.sessions) {
      const own = ops.filter((o) => o.sessionId === s.id);
      const calls = own.reduce((n, o) => n + o.usage.calls, 0);
      const prompt = own.reduce((n, o) => n + o.usage.promptTokens, 0);
      const completion = own.reduce((n, o) => n + o.usage.completionTokens, 0);
      totals.sessions++;
      totals.calls += calls;
      totals.prompt += prompt;
      totals.completion += completion;
      console.log(`| ${t.agent} | ${s.id} | ${calls} | ${prompt} | ${completion} |`);
    }
  }
  const per = (x: number) => (x / Math.max(1, totals.sessions)).toFixed(1);
  console.log(
    `\nper session: ${per(totals.calls)} calls, ${per(totals.prompt)} prompt + ${per(totals.completion)} completion tokens (${totals.sessions} sessions, ${chat.calls.length} calls in all)`,
  );
  await mem.close();
}
