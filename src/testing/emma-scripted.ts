/**
 * Deterministic answers for EMMA's steps, so the LLM engine's path (prompts, schemas, decoding,
 * the chain rule, costs) runs end to end without a model: `scriptedLlm({ byName:
 * emmaScriptedSteps() })`. They route on the step's name, never on prompt wording beyond the
 * transcript and list lines the steps themselves write.
 */

import { contentTokens } from "../core/text.js";
import type { ChatMessage } from "../models/chat-model.js";
import type { StepAnswer } from "./scripted-llm.js";

const lastUser = (messages: ChatMessage[]) => messages.filter((m) => m.role === "user").at(-1)?.content ?? "";

/**
 * `emma.summarize`: every partner line becomes "<Name> told me: …" about that partner, every line
 * of the agent "I said: …" (the first line of the prompt names the agent); `emma.link`: NEW
 * memories sharing two content words with another listed memory are related.
 */
export function emmaScriptedSteps(): Record<string, StepAnswer> {
  return {
    "emma.summarize"(messages) {
      const agent = /^You are ([^.(]+?)(?: \(|\.)/.exec(messages[0]!.content)?.[1]?.trim() ?? "";
      const ids = [...messages[0]!.content.matchAll(/(\S+) \(([^)]+)\)(?=[,.])/g)];
      const idOf = (name: string) => ids.find((m) => m[2] === name)?.[1];
      const aboutMe: { text: string; turns: number[] }[] = [];
      const aboutPartners: { partner: string; text: string; turns: number[] }[] = [];
      for (const m of lastUser(messages).matchAll(/^\[(\d+)\] ([^:]+): (.*)$/gm)) {
        const turn = Number(m[1]);
        // The agent's own replies are marked; they still say what the agent said of itself.
        const speaker = m[2]!.replace(/ \(own reply\)$/, "");
        if (speaker === agent) aboutMe.push({ text: `I said: ${m[3]}`, turns: [turn] });
        // Someone repeating what another said ("I remember this: Ben told me: …") is not a fact
        // about the one repeating it; the double keeps no fact from such a line.
        else if (!/\b(?:told me|I remember|I said)\b/.test(m[3]!)) {
          const partner = idOf(m[2]!);
          if (partner) aboutPartners.push({ partner, text: `${m[2]} told me: ${m[3]}`, turns: [turn] });
        }
      }
      return JSON.stringify({ aboutMe, aboutPartners });
    },
    "emma.link"(messages) {
      const lines = [...lastUser(messages).matchAll(/^(\d+)\. (NEW )?\([^)]*\) (.*)$/gm)].map((m) => ({
        n: Number(m[1]),
        fresh: Boolean(m[2]),
        words: new Set(contentTokens(m[3]!)),
      }));
      const pairs: { a: number; b: number; why: string }[] = [];
      for (const x of lines)
        for (const y of lines)
          if (x.n < y.n && (x.fresh || y.fresh) && [...x.words].filter((w) => y.words.has(w)).length >= 2)
            pairs.push({ a: x.n, b: y.n, why: "scripted: shared words" });
      return JSON.stringify({ pairs });
    },
  };
}
