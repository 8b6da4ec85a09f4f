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
import { extractJson, jsonCandidates } from "./json-repair.js";

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
  /**
   * Reads an answer that holds no JSON fitting the schema in the form a model naturally gives
   * it (a step's `prose`); its value is checked by the schema too.
   */
  prose?: (text: string) => unknown;
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

/**
 * The readings of an answer beyond the first: every JSON reading of it, each with its top-level
 * keys spelt as the schema spells them ("about_me" for "aboutMe"), and, when the schema asks for
 * an object of one property and a reading is an object of one other property, that value under
 * the asked name (a model that wrote "results" for "decisions": nothing else could be meant).
 */
function repairs(text: string, schema: Record<string, unknown>): unknown[] {
  const readings = jsonCandidates(text);
  const asked = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const spelt = new Map(asked.map((k) => [spelling(k), k]));
  const renamed = readings.flatMap((r) => {
    if (!r || typeof r !== "object" || Array.isArray(r)) return [];
    const entries = Object.entries(r);
    const respelt = Object.fromEntries(entries.map(([k, v]) => [spelt.get(spelling(k)) ?? k, v]));
    const lone =
      asked.length === 1 && entries.length === 1 && entries[0]![0] !== asked[0]
        ? [{ [asked[0]!]: entries[0]![1] }]
        : [];
    return [respelt, ...lone];
  });
  return [...readings, ...renamed];
}

/** A key without case, "_" or "-": how "about_me" and "aboutMe" are seen to be one. */
function spelling(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
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
    // Other readings: a cut-off answer without its unfinished last element, a lone key under
    // another name, the step's prose reader. The problem shown on a retry stays the first one's.
    for (const candidate of [...repairs(result.text, jsonSchema.schema), options.prose?.(result.text)]) {
      if (candidate === undefined) continue;
      const parsed = options.schema.safeParse(candidate);
      if (parsed.success) return { object: parsed.data, usage, attempts: attempt + 1, model: modelName };
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
