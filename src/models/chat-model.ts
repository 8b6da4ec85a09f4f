/**
 * The ChatModel port, version 1. An adapter turns messages into one completion and says what
 * it cost. Structured output is asked for with a JSON schema; adapters that cannot enforce it
 * still return text, and `generateObject` (structured.ts) repairs, validates and retries.
 */

import { checkContextWindow, MIN_CONTEXT_WINDOW } from "../core/context-window.js";
import { definePort } from "../core/specification.js";
import type { Usage } from "../core/types.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface JsonSchemaFormat {
  /** A short identifier for the schema ("summary", "pair_ops"). */
  name: string;
  schema: Record<string, unknown>;
}

export interface GenerateOptions {
  /** Ask for JSON matching this schema (enforced where the backend can). */
  jsonSchema?: JsonSchemaFormat;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /**
   * The thinking step asking (a step's name, such as "carecall.classify-pairs"): for logs and
   * test doubles; structured calls also carry it as `jsonSchema.name`.
   */
  task?: string;
}

export interface GenerateResult {
  text: string;
  usage: Usage;
  /** The model that answered, as the backend names it. */
  model: string;
}

export interface ChatModel {
  readonly specificationVersion: typeof CHAT_MODEL_SPECIFICATION.version;
  /** Provider and model, e.g. "openai:gpt-4o-mini" or "gguf:tiny.gguf". */
  readonly name: string;
  /**
   * Tokens the model can hold at once, prompt and answer together, when the adapter knows it
   * (optional: a model that declares none gets prompts of any size). The LLM cognition engine
   * sizes every prompt to it.
   */
  readonly contextWindow?: number;
  generate(messages: ChatMessage[], options?: GenerateOptions): Promise<GenerateResult>;
}

/**
 * A rough token count, for backends that report none and for sizing prompts: about four
 * characters a token in Latin scripts, two in Greek, Cyrillic, Hebrew, Arabic or Indic ones, and
 * one in Chinese, Japanese or Korean, whose characters tokenizers rarely merge.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x0370) wide += code >= 0x2e80 ? 3 : 1;
  }
  return Math.ceil((text.length + wide) / 4);
}

export function estimateMessageTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0);
}

/**
 * The window assumed for a local server that is not told its size: small enough for the context
 * llama.cpp, Ollama and LM Studio give a model unless asked for more.
 */
export const DEFAULT_CONTEXT_WINDOW = 4096;

/**
 * The window of a hosted model family the adapter recognises by its name, or undefined. The
 * figures are the families' published context lengths, rounded down where a family varies.
 */
export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase().replace(/^.*\//, "");
  if (/^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o1|o3|o4)/.test(name)) return 128_000;
  if (/^gpt-3\.5-turbo/.test(name)) return 16_000;
  if (/^gpt-4(-|$)/.test(name)) return 8192;
  if (/^claude/.test(name)) return 200_000;
  return undefined;
}

export { checkContextWindow, MIN_CONTEXT_WINDOW };

/** The ChatModel port's specification: the version its implementations declare, the methods they have. */
export const CHAT_MODEL_SPECIFICATION = definePort("ChatModel", "v1", ["generate"]);
