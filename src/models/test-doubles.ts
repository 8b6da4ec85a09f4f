/**
 * A deterministic stand-in for tests: a chat model that answers from a script. It counts usage
 * like a real adapter so accounting can be tested. (The hashing embedder, a real option for
 * machines with no encoder, is models/hash-embedder.ts.)
 */
import {
  type ChatMessage,
  type ChatModel,
  estimateMessageTokens,
  estimateTokens,
  type GenerateOptions,
  type GenerateResult,
} from "./chat-model.js";

export type ScriptedAnswer =
  | string
  | ((messages: ChatMessage[], options: GenerateOptions, call: number) => string | Promise<string>);

/** Answers each call with the next scripted answer (the last one repeats), or a function's. */
export class ScriptedChatModel implements ChatModel {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  /** The window the double claims, when a test gives one (prompts are then sized to it). */
  readonly contextWindow?: number;
  readonly calls: { messages: ChatMessage[]; options: GenerateOptions }[] = [];

  constructor(
    private readonly script: ScriptedAnswer | ScriptedAnswer[],
    name = "scripted",
    options: { contextWindow?: number } = {},
  ) {
    this.name = `test:${name}`;
    if (options.contextWindow !== undefined) this.contextWindow = options.contextWindow;
  }

  async generate(messages: ChatMessage[], options: GenerateOptions = {}): Promise<GenerateResult> {
    options.signal?.throwIfAborted();
    const call = this.calls.length;
    this.calls.push({ messages: structuredClone(messages), options });
    const answers = Array.isArray(this.script) ? this.script : [this.script];
    const answer = answers[Math.min(call, answers.length - 1)]!;
    const text = typeof answer === "function" ? await answer(messages, options, call) : answer;
    return {
      text,
      model: this.name,
      usage: {
        calls: 1,
        promptTokens: estimateMessageTokens(messages),
        completionTokens: estimateTokens(text),
        latencyMs: 0,
      },
    };
  }
}
