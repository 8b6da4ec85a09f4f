/**
 * Step `standing`: one session read for standing instructions and preferences, what a partner asks
 * once and means to hold from then on (how to answer, or a lasting constraint later answers must
 * respect), and for ones taken back. Each decision names the item in force it replaces, so a
 * change of mind supersedes the old version rather than sitting beside it. Offline, the learned
 * detector and the encoder do the same (cognition/offline/standing-reader.ts). Prompt in our words.
 */
import { z } from "zod";
import type { StandingDecision, StandingInput } from "../../cognition/inputs.js";
import { shippedStandingModel } from "../../cognition/offline/learned/standing-model.js";
import { partnerLines, standingOffline } from "../../cognition/offline/standing-reader.js";
import { chunkItems, defineStep } from "../../cognition/step.js";
import { displayName } from "../../core/ids.js";
import { formatDay } from "../../core/time.js";
import { turnShape } from "../../strategies/kit/steps/shapes.js";

const standingInput = z.object({
  agent: z.string().min(1),
  partners: z.array(z.string().min(1)).min(1),
  at: z.string().min(1),
  turns: z.array(turnShape),
  standing: z.array(z.object({ id: z.string(), about: z.string(), text: z.string(), at: z.string() })),
});

function answerSchema(lines: number, standing: number) {
  return z.object({
    items: z.array(
      z.object({
        line: z
          .number()
          .int()
          .min(0)
          .max(Math.max(0, lines - 1)),
        kind: z.enum(["instruction", "preference", "revoke"]),
        text: z.string().min(3).max(300),
        replaces: z.number().int().min(1).max(Math.max(1, standing)).nullable(),
      }),
    ),
  });
}

type StandingAnswer = z.infer<ReturnType<typeof answerSchema>>;

function standingMessages(input: StandingInput) {
  const agent = displayName(input.agent);
  const system = [
    `You keep the standing instructions and preferences of the people ${agent} talks with.`,
    "A standing instruction or preference is something a person asks for once and means to hold in later",
    `conversations too: how ${agent} should answer (length, format, tone, language, units), or a lasting`,
    "constraint or preference that later answers must respect (a diet, a budget, tools, a schedule, access needs).",
    "Not standing: a request about the answer at hand only ('make this one shorter'), habits of the past,",
    "other people's rules, questions, hypotheticals, and ordinary facts or likes that ask nothing of later answers.",
    "List every standing instruction or preference given in this session's lines, and every one taken back.",
    "Rules:",
    `- "text": what ${agent} should do from now on, in one short sentence naming the person`,
    "  (e.g. 'Give Sam distances in kilometres'); for a taking-back, what is no longer asked.",
    `- "kind": "instruction" (how to answer), "preference" (a lasting constraint or preference), or "revoke"`,
    "  (an earlier one taken back with nothing in its place).",
    `- "replaces": the number of the standing item below that it changes or takes back, else null.`,
    "- When a person changes one within this session, give only the final version.",
    `- "line": the number of the line it was said in.`,
    'Answer with JSON only: {"items": [{"line": 0, "kind": "instruction", "text": "...", "replaces": null}]}',
    'With nothing standing in the session, answer {"items": []}.',
  ].join("\n");
  const held = input.standing.length
    ? input.standing
        .map((s, i) => `${i + 1}. (${formatDay(s.at)}) ${displayName(s.about)}: ${s.text}`)
        .join("\n")
    : "(none)";
  const lines = partnerLines(input)
    .map((t, i) => `[${i}] ${displayName(t.speaker)}: ${t.text}`)
    .join("\n");
  return [
    { role: "system" as const, content: system },
    {
      role: "user" as const,
      content: `Standing items in force:\n${held}\n\nSession of ${formatDay(input.at)}, the people's lines:\n${lines}`,
    },
  ];
}

export const standingStep = defineStep<StandingInput, StandingDecision[], StandingAnswer>({
  name: "standing",
  // v2: a session longer than the model's window is read in consecutive parts.
  version: 2,
  description:
    "standing instructions and preferences given or taken back in a session, each with what it replaces",
  input: standingInput as unknown as z.ZodType<StandingInput>,
  output: (input) => answerSchema(partnerLines(input).length, input.standing.length),
  prompt: standingMessages,
  // A session longer than the model's window is read in consecutive parts, their items joined.
  batch: chunkItems<StandingInput, "turns", StandingDecision>("turns"),
  decode(answer, input) {
    const lines = partnerLines(input);
    return answer.items.map((item) => {
      const turn = lines[item.line]!;
      return {
        kind: item.kind,
        about: turn.speaker,
        text: item.text.trim(),
        turn: turn.id,
        replaces: item.replaces === null ? null : (input.standing[item.replaces - 1]?.id ?? null),
      };
    });
  },
  offline: (input, kit) =>
    standingOffline(
      input,
      kit.embedder,
      kit.models?.standing === undefined ? shippedStandingModel() : kit.models.standing,
    ),
});
