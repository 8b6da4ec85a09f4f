/**
 * Steps `reply` and `reply.reasoned`: the agent's next utterance from the prompt a strategy
 * composed. The reasoned form (Theanine's Phase III) asks for a rationale first, kept in the
 * REPLY operation. Offline, both answer from memory honestly (cognition/offline/reply.ts).
 */
import { z } from "zod";
import type { ReplyInput, ReplyValue } from "../../cognition/inputs.js";
import { replyOffline } from "../../cognition/offline/reply.js";
import { defineStep, type Step } from "../../cognition/step.js";
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

export const replyStep = defineStep<ReplyInput, ReplyValue, string>({
  name: "reply",
  // v2: strategies' prompts mark each memory current or past.
  version: 2,
  description: "the agent's next utterance, grounded in the memory its strategy recalled",
  input: replyInput,
  output: z.string().min(1).max(4000),
  format: "text",
  temperature: 0.7,
  maxTokens: 400,
  prompt: (input) => [{ role: "system", content: input.prompt.system }, ...input.prompt.messages],
  decode: (text) => ({ text }),
  offline: (input) => ({ text: replyOffline(input) }),
});

const REASONING_INSTRUCTION =
  'First think about what the partner needs and which remembered events matter (most recent state first), then reply. Answer with JSON only: {"rationale": "...", "reply": "..."}';

const reasonedAnswer = z.object({
  rationale: z.string().max(2000),
  reply: z.string().min(1).max(2000),
});

export const reasonedReplyStep = defineStep<ReplyInput, ReplyValue, z.infer<typeof reasonedAnswer>>({
  name: "reply.reasoned",
  // v2: strategies' prompts mark each memory current or past.
  version: 2,
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
});

/** The reply step a composed prompt asks for. */
export function replyStepFor(input: ReplyInput): Step<ReplyInput, ReplyValue, unknown> {
  return (input.prompt.reasoning ? reasonedReplyStep : replyStep) as Step<ReplyInput, ReplyValue, unknown>;
}
