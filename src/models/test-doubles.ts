/**
 * Deterministic stand-ins for tests and for machines with no model: a chat model that answers
 * from a script, and an embedder that hashes words into a vector. Both count usage like real
 * adapters so accounting can be tested.
 */
import { fnv1a, terms } from "../core/text.js";
import { normalize } from "../core/vector.js";
import {
  type ChatMessage,
  type ChatModel,
  estimateMessageTokens,
  estimateTokens,
  type GenerateOptions,
  type GenerateResult,
} from "./chat-model.js";
import type { Embedder } from "./embedder.js";

export type ScriptedAnswer =
  | string
  | ((messages: ChatMessage[], options: GenerateOptions, call: number) => string | Promise<string>);

/** Answers each call with the next scripted answer (the last one repeats), or a function's. */
export class ScriptedChatModel implements ChatModel {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  readonly calls: { messages: ChatMessage[]; options: GenerateOptions }[] = [];

  constructor(
    private readonly script: ScriptedAnswer | ScriptedAnswer[],
    name = "scripted",
  ) {
    this.name = `test:${name}`;
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

/**
 * Bag of stemmed words and word pairs, hashed into `dimensions` signed buckets. Texts that share
 * words are close; it knows no synonyms. Deterministic across runs and machines.
 */
export class HashEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name: string;

  constructor(readonly dimensions = 256) {
    this.name = `hash-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      const words = terms(text);
      const features = [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
      for (const f of features) {
        const h = fnv1a(f);
        v[h % this.dimensions]! += h & 0x80000000 ? -1 : 1;
      }
      return normalize(v);
    });
  }
}
