/**
 * Model calls and tokens per session of a strategy with LLM cognition, counted with the scripted
 * model double (it answers every step validly: one statement per partner utterance, APPEND for
 * every pair, SameTopic for every link). Tokens are estimated as the engine estimates them. With
 * `--context <tokens>` the double claims that window, so prompts are sized to it, and the largest
 * prompt sent is reported.
 */
import { readFileSync } from "node:fs";
import { loadTranscripts } from "../../src/engine/ingest/formats/load.js";
import { validateTranscript } from "../../src/engine/ingest/formats/transcript.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { estimateMessageTokens } from "../../src/models/chat-model.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { flag, positional } from "./args.js";

export async function benchLlmCost(args: string[]): Promise<void> {
  const file = positional(args, "");
  const strategy = flag(args, "strategy", "carecall");
  const context = flag(args, "context", "");
  const transcripts = file
    ? await loadTranscripts(file)
    : [
        validateTranscript(
          JSON.parse(readFileSync(new URL("../../data/demo-conversation.json", import.meta.url), "utf8")),
        ),
      ];
  const chat = scriptedLlm({}, context ? { contextWindow: Number(context) } : {});
  const mem = await openMemlane({ store: ":memory:", strategy, embedder: "hash", chat });
  console.log(
    `strategy ${strategy}, LLM cognition (scripted double), window ${context ? `${context} tokens` : "not sized"}\n`,
  );
  console.log(
    "| agent | session | model calls | prompt tokens | completion tokens |\n| --- | --- | ---: | ---: | ---: |",
  );
  const totals = { sessions: 0, calls: 0, prompt: 0, completion: 0 };
  for (const t of transcripts) {
    await mem.ingest(t);
    const ops = await mem.store.listOperations(mem.scope(t.agent));
    for (const s of t.sessions) {
      const own = ops.filter((o) => o.sessionId === s.id);
      const sum = (f: (o: (typeof own)[number]) => number) => own.reduce((n, o) => n + f(o), 0);
      const [calls, prompt, completion] = [
        sum((o) => o.usage.calls),
        sum((o) => o.usage.promptTokens),
        sum((o) => o.usage.completionTokens),
      ];
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
  const largest = Math.max(0, ...chat.calls.map((c) => estimateMessageTokens(c.messages)));
  console.log(`largest prompt sent: ${largest} tokens`);
  await mem.close();
}
