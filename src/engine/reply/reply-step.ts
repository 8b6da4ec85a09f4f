/**
 * Steps `reply` and `reply.reasoned`: the agent's next utterance from the prompt a strategy
 * composed. The reasoned form (Theanine's Phase III) asks for a rationale first, kept in the
 * REPLY operation. Offline, both answer from memory honestly (cognition/offline/reply.ts).
 * A reply always comes back: the reasoned form reads a prose answer ("Rationale: … Reply: …", or
 * the whole text as the reply), and when the model gives nothing usable at all both fall back to
 * the offline reply, the failure recorded beside the REPLY operation (reply.ts).
 */
import { z } from "zod";
import type { ReplyInput, ReplyValue } from "../../cognition/inputs.js";
import { replyOffline } from "../../cognition/offline/reply.js";
import { defineStep, type Step } from "../../cognition/step.js";
import { jsonCandidates } from "../../models/json-repair.js";
import { recallShape, turnShape } from "../../strategies/kit/steps/shapes.js";

const replyInput = z.object({
  agent: z.string().min(1),
  partner: z.string().min(1),
  at: z.string().min(1),
  dialogue: z.array(turnShape),
  recall: recallShape,
  prompt: z.looseObject({
    system: z.string(),
    messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  }),
}) as unknown as z.ZodType<ReplyInput>;

/** What stands in for a reply the model could not give: the offline reply over the same recall. */
const offlineReply = {
  what: "the offline reply",
  value: (input: ReplyInput): ReplyValue => ({ text: replyOffline(input) }),
};

export const replyStep = defineStep<ReplyInput, ReplyValue, string>({
  name: "reply",
  // v2: an empty answer is asked for again, then the offline reply stands in.
  // v3: strategies' prompts mark each memory current or past.
  version: 3,
  description: "the agent's next utterance, grounded in the memory its strategy recalled",
  input: replyInput,
  output: z.string().min(1).max(4000),
  format: "text",
  temperature: 0.7,
  maxTokens: 400,
  prompt: (input) => [{ role: "system", content: input.prompt.system }, ...input.prompt.messages],
  decode: (text) => ({ text }),
  offline: (input) => ({ text: replyOffline(input) }),
  fallback: offlineReply,
});

const REASONING_INSTRUCTION =
  'First think about what the partner needs and which remembered events matter (most recent state first), then reply. Answer with JSON only: {"rationale": "...", "reply": "..."}';

const reasonedAnswer = z.object({
  rationale: z.string().max(2000),
  reply: z.string().min(1).max(2000),
});

/** Names a model gives the two fields instead of "reply" and "rationale". */
const REPLY_KEY = /^(?:reply|response|answer|message|utterance)$/i;
const RATIONALE_KEY = /^(?:rationale|reason|reasoning|thoughts?|thinking|analysis)$/i;

/**
 * A reasoned reply given in prose: "Rationale: … Reply: …" (labels in any case, marked up or
 * not), or, with no "Reply" label, the whole answer as the reply; or JSON whose fields have
 * other names ("response", "reasoning"). Undefined for an empty answer or JSON with no reply in
 * it, which are asked for again.
 */
export function readReasoned(text: string): { rationale: string; reply: string } | undefined {
  const plain = text.trim();
  if (!plain) return undefined;
  if (/^[{[`]/.test(plain)) {
    for (const reading of jsonCandidates(plain)) {
      if (!reading || typeof reading !== "object" || Array.isArray(reading)) continue;
      const fields = Object.entries(reading).filter((e): e is [string, string] => typeof e[1] === "string");
      const reply = fields.find(([k]) => REPLY_KEY.test(k))?.[1].trim();
      if (reply) return { rationale: fields.find(([k]) => RATIONALE_KEY.test(k))?.[1] ?? "", reply };
    }
    return undefined;
  }
  const label = (name: string) => new RegExp(`(?:^|\\s)[*#_]*${name}[*_]*\\s*:[\\s*_]*`, "i");
  const reply = label("reply").exec(plain);
  if (!reply) return { rationale: "", reply: plain.slice(0, 2000) };
  const said = plain.slice(reply.index + reply[0].length).trim();
  const before = plain.slice(0, reply.index);
  const rationale = label("rationale").exec(before);
  return {
    rationale: (rationale ? before.slice(rationale.index + rationale[0].length) : before)
      .trim()
      .slice(0, 2000),
    reply: said.slice(0, 2000),
  };
}

export const reasonedReplyStep = defineStep<ReplyInput, ReplyValue, z.infer<typeof reasonedAnswer>>({
  name: "reply.reasoned",
  // v2: a prose answer is read ("Rationale: … Reply: …", or taken whole as the reply); an answer
  // that never comes falls back to the offline reply.
  // v3: strategies' prompts mark each memory current or past.
  version: 3,
  description: "a rationale over the dialogue and the recalled timelines, then the reply",
  input: replyInput,
  output: reasonedAnswer,
  temperature: 0.7,
  prompt: (input) => [
    { role: "system", content: `${input.prompt.system}\n\n${REASONING_INSTRUCTION}` },
    ...input.prompt.messages,
  ],
  decode: (answer) => ({ text: answer.reply.trim(), rationale: answer.rationale }),
  offline: (input) => ({ text: replyOffline(input) }),
  prose: (text) => readReasoned(text),
  fallback: offlineReply,
});

/** The reply step a composed prompt asks for. */
export function replyStepFor(input: ReplyInput): Step<ReplyInput, ReplyValue, unknown> {
  return (input.prompt.reasoning ? reasonedReplyStep : replyStep) as Step<ReplyInput, ReplyValue, unknown>;
}
