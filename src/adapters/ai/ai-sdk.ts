/**
 * memlane in the Vercel AI SDK (`memlane/ai`; `ai` is an optional peer dependency, v6):
 * `memlaneTools` hands an agent typed tools to recall and remember, and `withMemlane` wraps a
 * language model so every call recalls before it and records the exchange after it.
 * @example
 * const model = withMemlane(openai("gpt-4o-mini"), { mem, agent: "ava", partner: "sam" });
 * const { text } = await generateText({ model, prompt: "Any ideas for my dog's birthday?" });
 */
import { type LanguageModelMiddleware, tool, wrapLanguageModel } from "ai";
import { z } from "zod";
import { ConflictError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { fieldsOf, refuseUnknownFields } from "../../core/unknown-fields.js";
import { idSchema, parseInput, type RecallScope, unknownFields } from "../../engine/api.js";
import type { Memlane } from "../../engine/memlane.js";
import { remember } from "../../engine/remember.js";

/** Whose memory the tools and the middleware use. */
export interface MemlaneAiOptions {
  /** The engine (or a tenant's view of it: `mem.tenant("acme")`). */
  mem: Memlane;
  /** Whose memory it is: the assistant. */
  agent: string;
  /** Who the assistant talks with: the user. */
  partner: string;
  /**
   * What recall sees: "partner" (what this user may hear: their words and the agent's to them)
   * or "agent" (the agent's whole memory, every user's private memories excepted). Default the
   * strategy's: partner, agent for emma.
   */
  scope?: RecallScope;
}

/** The recall input for this user: what they may hear, in the scope asked for (or the strategy's). */
function recallFor(options: MemlaneAiOptions, query: string, k?: number) {
  const { agent, partner, scope } = options;
  return { agent, query, k, about: partner, ...(scope ? { scope } : {}) };
}

/**
 * Typed tools for an AI SDK agent: `recall` (what the agent remembers for a question) and
 * `remember` (a fact the user told, stored and consolidated). Hand them to `generateText({ tools })`.
 */
export function memlaneTools(options: MemlaneAiOptions) {
  refuseUnknownFields(options, AI_OPTIONS_FIELDS, "memlaneTools options");
  const { mem, agent, partner } = options;
  return {
    recall: tool({
      description: `Search what you remember about ${partner} and your past conversations, best first. Use before answering anything that depends on earlier talks.`,
      inputSchema: z.strictObject(
        {
          query: z.string().min(1).describe("the question, in words"),
          k: z
            .number()
            .int()
            .min(1)
            .max(20)
            .optional()
            .describe("how many memories (default the strategy's)"),
        },
        unknownFields,
      ),
      execute: async ({ query, k }) => {
        const found = await mem.recall(recallFor(options, query, k));
        return found.hits.map((h) => ({
          id: h.id,
          text: h.text,
          about: h.about,
          when: h.observedAt,
          status: h.status,
        }));
      },
    }),
    remember: tool({
      description: `Store one thing ${partner} told you (in their words) so you remember it in later conversations.`,
      inputSchema: z.strictObject(
        { fact: z.string().min(1).describe("e.g. 'I moved to Oslo in May'") },
        unknownFields,
      ),
      execute: async ({ fact }) => remember(mem, { agent, partner, fact }),
    }),
  };
}

// A misspelt `partner` or `agent` would file memories under nobody; an unknown option is refused.
const AI_OPTIONS_FIELDS = fieldsOf<MemlaneAiOptions>({ mem: true, agent: true, partner: true, scope: true });

/** What `withMemlane` does besides recalling and recording. */
export interface WithMemlaneOptions extends MemlaneAiOptions {
  /** How many memories to put before each call (default the strategy's own). */
  k?: number;
  /**
   * Also put up to this many turns of the conversations that no shown memory was made from,
   * quoted (default 0; the agent's own generated answers are never among them; `recall({ turns })`
   * in docs/recall.md).
   */
  turns?: number;
  /** Record each exchange (default true). */
  record?: boolean;
  /**
   * The conversation these calls belong to. Given, every exchange of it is added to one open
   * session whose id is the conversation id (made at the first exchange, added to at each next
   * one) and left open while the conversation lasts; `mem.closeSession(agent, conversationId)`
   * consolidates it when it ends (or `mem.retry(agent, undefined, { open: true })` later). A call
   * may name its own: `providerOptions: { memlane: { conversationId } }`. Without one, each
   * exchange is a session of its own, closed and consolidated at once.
   */
  conversationId?: string;
}

/**
 * The model, wrapped: before each call the latest user message is recalled against memory and
 * the hits are put first as a system message; after the model answers, the user message and the
 * answer are stored together in one call — once per exchange, however many tool-call steps it
 * took (an exchange stopped while the model still calls tools is not recorded); a streamed call
 * is recorded once its stream has been read to the end. Each exchange is a session of its own,
 * consolidated at once, unless the calls name their conversation (`conversationId`): then one
 * conversation is one open session.
 */
export function withMemlane(
  model: Parameters<typeof wrapLanguageModel>[0]["model"],
  options: WithMemlaneOptions,
): ReturnType<typeof wrapLanguageModel> {
  return wrapLanguageModel({ model, middleware: memlaneMiddleware(options) });
}

/** The middleware behind `withMemlane`, to combine with others in `wrapLanguageModel`. */
export function memlaneMiddleware(options: WithMemlaneOptions): LanguageModelMiddleware {
  refuseUnknownFields(options, WITH_MEMLANE_FIELDS, "withMemlane options");
  const { mem, agent, partner } = options;
  const defaultConversation =
    options.conversationId === undefined
      ? undefined
      : parseInput(idSchema, options.conversationId, "conversationId");
  /**
   * Stores the user's message and the answer in one call (both or neither): in the
   * conversation's open session, or as a session of their own, consolidated in the background.
   */
  const record = async (asked: string, answer: string, conversationId: string | undefined) => {
    const answered = answer.trim();
    if (options.record === false || !asked) return;
    const messages = [
      { speaker: partner, text: asked },
      // The answer is the model's: marked generated, never a source of facts.
      ...(answered ? [{ speaker: agent, text: answered, meta: { generated: true } }] : []),
    ];
    if (conversationId === undefined) {
      await mem.add({ agent, partner, messages });
      return;
    }
    if (!(await mem.getSession(agent, conversationId))) {
      try {
        await mem.add({ agent, partner, messages, id: conversationId, close: false });
        return;
      } catch (error) {
        // Another call of the conversation made its session meantime: this exchange joins it.
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    await mem.add({ agent, partner, messages, sessionId: conversationId, close: false });
  };
  /** The call's own conversation id (`providerOptions.memlane.conversationId`), else the option's. */
  const conversationOf = (params: { providerOptions?: Record<string, Record<string, unknown>> }) => {
    const named = params.providerOptions?.memlane?.conversationId;
    return named === undefined
      ? defaultConversation
      : parseInput(idSchema, named, "providerOptions.memlane.conversationId");
  };
  return {
    specificationVersion: "v3",
    transformParams: async ({ params }) => {
      const query = lastUserText(params.prompt);
      if (!query) return params;
      const { hits, standing = [] } = await mem.recall({
        ...recallFor(options, query, options.k),
        ...(options.turns ? { turns: options.turns } : {}),
      });
      if (hits.length === 0 && standing.length === 0) return params;
      const lines = hits.map((h) =>
        h.kind === "turn"
          ? `- ${displayName(h.about)} said: "${h.text}" (${h.observedAt.slice(0, 10)})`
          : `- ${h.text} (${h.observedAt.slice(0, 10)}${h.status === "past" ? ", no longer so" : ""})`,
      );
      const note = [
        ...(lines.length
          ? [`What you remember about ${partner} from earlier conversations:\n${lines.join("\n")}`]
          : []),
        // Asked once, meant for every later answer: no search for this question would find them.
        ...(standing.length
          ? [
              `Standing instructions and preferences, newest first (follow them unless the person changes them now):\n${standing.map((h) => `- ${h.text}`).join("\n")}`,
            ]
          : []),
      ].join("\n\n");
      return { ...params, prompt: [{ role: "system", content: note }, ...params.prompt] };
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      // A step that ends in tool calls is not the end of the exchange: the SDK calls the model
      // again with the same user message and the tools' results. Only the step that answers
      // records, so one exchange is one session however many steps it takes.
      if (result.finishReason.unified === "tool-calls") return result;
      const answered = result.content
        .filter((c) => c.type === "text")
        .map((c) => c.text)
        .join("");
      await record(lastUserText(params.prompt), answered, conversationOf(params));
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const { stream, ...rest } = await doStream();
      const asked = lastUserText(params.prompt);
      const conversationId = conversationOf(params);
      let answered = "";
      let toolCalls = false;
      // The exchange is recorded once the stream has been read to its end, unless the step ended
      // in tool calls (the next step answers, and records).
      const recording = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") answered += part.delta;
          if (part.type === "finish") toolCalls = part.finishReason.unified === "tool-calls";
          controller.enqueue(part);
        },
        flush: () => (toolCalls ? undefined : record(asked, answered, conversationId)),
      });
      return { stream: stream.pipeThrough(recording), ...rest };
    },
  };
}

type StreamPart =
  Awaited<
    ReturnType<Parameters<NonNullable<LanguageModelMiddleware["wrapStream"]>>[0]["doStream"]>
  >["stream"] extends ReadableStream<infer P>
    ? P
    : never;

type Prompt = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"]["prompt"];

/** The text of the latest user message, or "" when there is none. */
function lastUserText(prompt: Prompt): string {
  const last = [...prompt].reverse().find((m) => m.role === "user");
  if (last?.role !== "user") return "";
  return last.content
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join(" ")
    .trim();
}

const WITH_MEMLANE_FIELDS = fieldsOf<WithMemlaneOptions>({
  mem: true,
  agent: true,
  partner: true,
  k: true,
  turns: true,
  record: true,
  scope: true,
  conversationId: true,
});
