/**
 * Step `emma.summarize`: EMMA's egocentric memory summarization. At the end of a session the agent
 * alone writes what it wants to keep, from its own point of view, in two parts: about itself
 * ("I …") and about each partner of the session (by name, "Layla …"; the agent is "I"/"me"
 * there too). "Nothing worth keeping" is an empty list. Prompt in our words, after the paper's
 * memory-generation task (significant events, experiences, plans, feelings).
 */
import { z } from "zod";
import { summarizeOffline } from "../../../cognition/offline/summarize.js";
import { chunkItems, defineStep } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import { formatDay } from "../../../core/time.js";
import type { Statement, Turn } from "../../../core/types.js";
import { turnShape } from "../../kit/steps/shapes.js";
import { numberedTranscript, ownReplyRule } from "../../kit/steps/summarize.js";
import { toFirstPerson } from "../first-person.js";

/** A person of the session: memlane id, and the role the scenario gives them, if any. */
export interface EmmaPerson {
  id: string;
  role?: string;
}

export interface EgocentricInput {
  agent: EmmaPerson;
  partners: EmmaPerson[];
  sessionId: string;
  /** Conversation time of the session. */
  at: string;
  /** 1 for the agent's first session, and so on. */
  ordinal: number;
  turns: Turn[];
  /** Offline: least salience a sentence needs to be kept (the shared summarizer's default otherwise). */
  minSalience?: number;
}

const person = z.object({ id: z.string().min(1), role: z.string().optional() });
const inputSchema = z.object({
  agent: person,
  partners: z.array(person).min(1),
  sessionId: z.string().min(1),
  at: z.string().min(1),
  ordinal: z.number().int().min(1),
  turns: z.array(turnShape),
  minSalience: z.number().optional(),
});

function answerSchema(partners: string[], turnCount: number) {
  const turns = z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(Math.max(0, turnCount - 1)),
    )
    .min(1)
    .describe("numbers of the turns it rests on");
  const text = z.string().min(3).max(300);
  const secret = z
    .boolean()
    .optional()
    .describe(
      "true when the partner asked to keep it between you, or it is sensitive (codes, health, money, trouble, a home address)",
    );
  return z.object({
    aboutMe: z.array(z.object({ text: text.describe("first person: 'I …'"), turns, private: secret })),
    aboutPartners: z.array(
      z.object({
        partner: z.enum(partners as [string, ...string[]]).describe("id of the partner it is about"),
        text: text.describe("the partner by name; the agent as I / me"),
        turns,
        private: secret,
      }),
    ),
  });
}

type Answer = z.infer<ReturnType<typeof answerSchema>>;

const who = (p: EmmaPerson) => `${displayName(p.id)}${p.role ? ` (${p.role})` : ""}`;

function messages(input: EgocentricInput) {
  const me = displayName(input.agent.id);
  const system = [
    `You are ${who(input.agent)}. You keep your own memory of the people you talk with, each session with someone,`,
    "and you write it from your own point of view.",
    `Read the session that just ended and note what you want to remember, in two parts:`,
    '- aboutMe: what happened to you, what you did, decided, promised or felt, written as "I …".',
    `- aboutPartners: what you learned about each partner, naming them ("Layla failed her exam"), with yourself as "I" or "me".`,
    "Keep significant events, experiences, plans and appointments, changes, and feelings; leave out greetings and small talk.",
    "Each memory is one complete sentence, not a copy of an utterance. Turn relative times into dates using the session date.",
    "When nothing is worth keeping, give an empty list. Do not invent anything the session does not say.",
    ownReplyRule(input.agent.id),
    'Mark a memory "private": true when the partner asked you to keep it to yourself, or when it is sensitive (passwords,',
    "codes, account numbers, a home address, health, money, relationship or family trouble, legal trouble): you will never",
    "tell it to anyone else. Leave the request itself out of the sentence.",
    `Partner ids: ${input.partners.map((p) => `${p.id} (${displayName(p.id)})`).join(", ")}.`,
    'Answer with JSON only: {"aboutMe": [{"text": "I …", "turns": [0]}], "aboutPartners": [{"partner": "id", "text": "…", "turns": [1]}]}',
  ].join("\n");
  const transcript = numberedTranscript(input.turns, input.agent.id);
  return [
    { role: "system" as const, content: system },
    {
      role: "user" as const,
      content: `Session ${input.ordinal}, ${formatDay(input.at)}, ${me} with ${input.partners.map(who).join(", ")}\n\n${transcript}`,
    },
  ];
}

/** The memory's fields EMMA keeps beside the text: whose view, which session, with whom. */
function egocentric(input: EgocentricInput): Record<string, unknown> {
  return {
    perspective: input.agent.id,
    sessionOrdinal: input.ordinal,
    sessionPartners: input.partners.map((p) => p.id),
  };
}

export const emmaSummarizeStep = defineStep<EgocentricInput, Statement[], Answer>({
  name: "emma.summarize",
  // v2: the agent's own replies are shown, marked, and only its statements about itself are kept.
  // v3: each memory says whether it is private.
  // v4: a session longer than the model's window is summarized in consecutive parts.
  version: 4,
  description: "a session into the agent's own memories about itself and about each partner",
  input: inputSchema as unknown as z.ZodType<EgocentricInput>,
  output: (input) =>
    answerSchema(
      input.partners.map((p) => p.id),
      input.turns.length,
    ),
  prompt: messages,
  decode(answer, input) {
    const statement = (about: string, text: string, numbers: number[], secret?: boolean): Statement => {
      const turns = numbers.map((i) => input.turns[i] as Turn);
      return {
        about,
        text: text.trim(),
        sourceTurns: turns.map((t) => t.id),
        observedAt: turns[0]?.at || input.at,
        // `private` is read by the write path (engine/privacy/audience-stamp.ts).
        attributes: { ...egocentric(input), ...(secret ? { private: true } : {}) },
      };
    };
    return [
      ...answer.aboutMe.map((m) => statement(input.agent.id, m.text, m.turns, m.private)),
      ...answer.aboutPartners.map((m) => statement(m.partner, m.text, m.turns, m.private)),
    ];
  },
  // A session longer than the model's window is summarized in consecutive parts, their memories joined.
  batch: chunkItems<EgocentricInput, "turns", Statement>("turns"),
  async offline(input, kit) {
    // The shared summarizer writes third-person statements about each speaker; the agent's
    // name then becomes the first person, in its own memories and in those about partners.
    const statements = await summarizeOffline(
      {
        agent: input.agent.id,
        partners: input.partners.map((p) => p.id),
        sessionId: input.sessionId,
        at: input.at,
        turns: input.turns,
      },
      kit.embedder,
      input.minSalience === undefined ? {} : { minScore: input.minSalience },
    );
    const me = displayName(input.agent.id);
    return statements.map((s) => ({
      ...s,
      text: toFirstPerson(s.text, me, { reflexive: s.about === input.agent.id }),
      attributes: { ...s.attributes, ...egocentric(input) },
    }));
  },
});
