/**
 * The input of a one-call write (`mem.add({ agent, partner, messages })`, REST's
 * `POST /v1/agents/{agent}/messages`, MCP's `remember`): an exchange given whole, each message
 * OpenAI-style (`role`, `content`) or memlane-style (`speaker`, `text`).
 */
import { z } from "zod";
import { idSchema, turnTextSchema, unknownFields } from "../api.js";

/** Most messages one call may hold: each is a turn written and embedded before the call answers. */
export const MAX_MESSAGES = 1000;

const metaSchema = z.record(z.string(), z.unknown());

/** One message: who said it (a role or a speaker) and what (content or text). */
export const messageSchema = z
  .strictObject(
    {
      role: z
        .enum(["user", "assistant"])
        .optional()
        .describe("OpenAI-style: user is the partner, assistant is the agent (give role or speaker)"),
      speaker: idSchema.optional().describe("the agent or the partner, by id (give role or speaker)"),
      content: turnTextSchema.optional().describe("what was said (give content or text)"),
      text: turnTextSchema.optional().describe("what was said (give content or text)"),
      at: z
        .string()
        .min(1)
        .optional()
        .describe("when it was said (ISO-8601); default the message before it, or the session's time"),
      meta: metaSchema.optional().describe("the caller's own data, kept with the turn"),
    },
    unknownFields,
  )
  .superRefine((m, ctx) => {
    if ((m.role === undefined) === (m.speaker === undefined))
      ctx.addIssue({ code: "custom", path: ["role"], message: "give one of role or speaker" });
    if ((m.content === undefined) === (m.text === undefined))
      ctx.addIssue({ code: "custom", path: ["content"], message: "give one of content or text" });
    const said = m.content ?? m.text;
    if (said !== undefined && said.trim().length === 0)
      ctx.addIssue({
        code: "custom",
        path: [m.content !== undefined ? "content" : "text"],
        message: "a message needs some text",
      });
  })
  // Said in the published schema too: who and what, in either naming.
  .meta({
    anyOf: [
      { required: ["role", "content"] },
      { required: ["speaker", "text"] },
      { required: ["role", "text"] },
      { required: ["speaker", "content"] },
    ],
  });
export type MessageInput = z.input<typeof messageSchema>;

/** What every form of the one-call write takes, apart from the agent and how it is called. */
const exchangeShape = {
  partner: idSchema.describe("who the agent talks with; the messages are theirs to hear, no one else's"),
  messages: z
    .array(messageSchema)
    .min(1, "give at least one message")
    .max(MAX_MESSAGES, `a call holds at most ${MAX_MESSAGES} messages; send several`)
    .describe("the exchange, oldest first"),
  at: z
    .string()
    .min(1)
    .optional()
    .describe("when the session took place (ISO-8601); default the first message's time, or now"),
  meta: metaSchema.optional().describe("the caller's own data, kept with the session"),
  infer: z
    .boolean()
    .optional()
    .describe(
      "true (default): the session is closed and consolidated into memories; false: the messages are kept as given, as turns, and nothing is inferred from them",
    ),
};

/** The REST body of `POST /v1/agents/{agent}/messages` (the agent is in the path; the key in a header). */
export const messagesBodySchema = z.strictObject(exchangeShape, unknownFields);

/** `mem.add({ agent, partner, messages, … })`. */
export const addMessagesSchema = z.strictObject(
  {
    agent: idSchema.describe("whose memory (the assistant's id)"),
    ...exchangeShape,
    idempotencyKey: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("a retried call with the same key stores nothing twice and answers as the first did"),
    id: idSchema.optional().describe("the new session's id; default a fresh one"),
    sessionId: idSchema.optional().describe("an open session to add the messages to (instead of a new one)"),
    close: z
      .boolean()
      .optional()
      .describe("close the session so it is consolidated (default true); false leaves it open for more"),
  },
  unknownFields,
);
export type AddMessagesInput = z.input<typeof addMessagesSchema>;
