/**
 * Structured output with repair and retry (docs/architecture.md, "Principles": a failed thought is visible). The answer is parsed
 * leniently, validated with zod, and on failure the model is asked again with the error shown.
 * After the last try a SchemaMismatchError carries every attempt, so the caller can record a
 * failed operation instead of dropping anything.
 */
import { z } from "zod";
import { SchemaMismatchError } from "../core/errors.js";
import { addUsage, emptyUsage, type Usage } from "../core/types.js";
import { type ChatMessage, type ChatModel, estimateMessageTokens } from "./chat-model.js";
import { extractJson } from "./json-repair.js";

export interface GenerateObjectOptions<T extends z.ZodType> {
  schema: T;
  /** Schema name shown to the backend. */
  name: string;
  messages: ChatMessage[];
  /** Tries after the first one (default 2). */
  retries?: number;
  temperature?: number;
  maxTokens?: number;
  /**
   * Most estimated tokens a try's prompt may take: the failed answers shown to a retry are cut
   * (oldest first, then the latest's text) so that it never outgrows the first prompt's budget.
   */
  maxPromptTokens?: number;
  signal?: AbortSignal;
}

export interface GenerateObjectResult<T> {
  object: T;
  usage: Usage;
  attempts: number;
  model: string;
}

export interface FailedAttempt {
  text: string;
  error: string;
}

/** JSON schema of a zod schema, in the draft most OpenAI-compatible servers accept. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-7", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

export async function generateObject<T extends z.ZodType>(
  model: ChatModel,
  options: GenerateObjectOptions<T>,
): Promise<GenerateObjectResult<z.infer<T>>> {
  const retries = options.retries ?? 2;
  const jsonSchema = { name: options.name, schema: jsonSchemaOf(options.schema) };
  let messages = [...options.messages];
  const failures: FailedAttempt[] = [];
  let usage = emptyUsage();
  let modelName = model.name;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const result = await model.generate(messages, {
      jsonSchema,
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      signal: options.signal,
      task: options.name,
    });
    usage = addUsage(usage, result.usage);
    modelName = result.model;
    let problem: string;
    try {
      const parsed = options.schema.safeParse(extractJson(result.text));
      if (parsed.success) return { object: parsed.data, usage, attempts: attempt + 1, model: modelName };
      problem = z.prettifyError(parsed.error);
    } catch (error) {
      problem = (error as Error).message;
    }
    failures.push({ text: result.text, error: problem });
    messages.push(
      { role: "assistant", content: result.text },
      {
        role: "user",
        content: `That answer could not be used: ${problem}\nReply again with only a JSON value that matches the schema "${options.name}".`,
      },
    );
    if (options.maxPromptTokens !== undefined)
      messages = withinBudget(messages, options.messages.length, options.maxPromptTokens);
  }
  throw new SchemaMismatchError(
    `The model's answer for "${options.name}" did not fit its schema after ${retries + 1} tries`,
    {
      schema: options.name,
      attempts: failures,
      usage,
      model: modelName,
    },
  );
}

/**
 * A retry's messages within `max` estimated tokens: the repairs of older tries go first, then
 * the latest failed answer is shortened, and at last the retry is the first prompt alone.
 */
function withinBudget(messages: ChatMessage[], first: number, max: number): ChatMessage[] {
  const out = [...messages];
  while (estimateMessageTokens(out) > max && out.length > first + 2) out.splice(first, 2);
  const over = estimateMessageTokens(out) - max;
  if (over <= 0) return out;
  const answer = out[first];
  const keep = answer ? answer.content.length - over * 4 - 8 : 0;
  if (!answer || keep < 200) return out.slice(0, first);
  out[first] = { ...answer, content: `${answer.content.slice(0, keep)} […]` };
  return estimateMessageTokens(out) <= max ? out : out.slice(0, first);
}
