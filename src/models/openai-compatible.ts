/**
 * Adapters for any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp server…) through
 * the official `openai` client. Structured output is asked for as a JSON schema; a server that
 * refuses the schema parameter is asked again without it and remembered as unable.
 *
 * Deadlines and retries are memlane's own (deadline.ts), not the client's: the client's timeout
 * stops at the response headers, so a server that drips its body could hold a call for ever.
 * Each request here has `timeoutMs` for the whole answer, body and parsing included, and a
 * request that times out, cannot connect, or gets 408/409/429/5xx is tried again up to
 * `maxRetries` times.
 */
import { createRequire } from "node:module";
import type OpenAI from "openai";
import { MemlaneError, ModelTimeoutError, ModelUnavailableError } from "../core/errors.js";
import { normalize } from "../core/vector.js";
import {
  type ChatMessage,
  type ChatModel,
  checkContextWindow,
  DEFAULT_CONTEXT_WINDOW,
  estimateMessageTokens,
  estimateTokens,
  type GenerateOptions,
  type GenerateResult,
  knownContextWindow,
} from "./chat-model.js";
import { pause, retryWait, withinDeadline } from "./deadline.js";
import type { Embedder } from "./embedder.js";

export interface OpenAICompatibleConfig {
  /** e.g. "https://api.openai.com/v1" or "http://localhost:11434/v1". */
  baseURL: string;
  model: string;
  apiKey?: string;
  /**
   * Deadline of each request in ms, for the whole answer: connecting, waiting, reading the body
   * and parsing it (default 60 s). A request still unanswered then is aborted and fails with a
   * ModelTimeoutError.
   */
  timeoutMs?: number;
  /**
   * Tries after the first for a request that timed out, could not connect, or got 408, 409, 429
   * or 5xx (default 2). Between tries memlane waits what the server asks (at most a minute) or
   * 0.5 s doubling, so a call lasts at most (maxRetries + 1) × timeoutMs plus those waits.
   */
  maxRetries?: number;
  /**
   * Tokens the model holds at once, prompt and answer (chat models only). Default: the published
   * length of a hosted family recognised by its name (gpt-4o: 128,000), else 4,096, which fits
   * what local servers give a model unless told otherwise. Set it to what the server really
   * loads: prompts are sized to it.
   */
  contextWindow?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The request header naming the thinking step that asks (`GenerateOptions.task`). */
export const TASK_HEADER = "x-memlane-task";
const DEFAULT_RETRIES = 2;

type Sdk = typeof import("openai");
let loaded: Sdk | undefined;
/**
 * The OpenAI SDK, loaded when the first client is made: importing memlane, or running offline,
 * does not pay for it. Its CommonJS build is required synchronously, so the errors it throws and
 * the classes `modelError` tests them against come from the same copy.
 */
function sdk(): Sdk {
  loaded ??= createRequire(import.meta.url)("openai") as Sdk;
  return loaded;
}

function client(config: OpenAICompatibleConfig): OpenAI {
  return new (sdk().OpenAI)({
    baseURL: config.baseURL,
    apiKey: config.apiKey || "not-needed",
    // The client's own timeout only covers the wait for headers; it is set to the deadline so it
    // never outlasts it, and `request` below enforces the deadline on the rest.
    timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // Retries are `request`'s, so that every try has a deadline of its own.
    maxRetries: 0,
  });
}

/**
 * Sends one request through `send` with a deadline on each try, trying again after the faults
 * that may pass (see `retriable`), and maps what fails onto memlane's errors. A caller's abort
 * ends it at once, waits between tries included.
 */
async function request<T>(
  config: OpenAICompatibleConfig,
  signal: AbortSignal | undefined,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const retries = config.maxRetries ?? DEFAULT_RETRIES;
  const where = config.baseURL;
  for (let retry = 0; ; retry++) {
    try {
      return await withinDeadline(
        {
          ms: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          signal,
          who: `The model server at ${where}`,
          details: { where },
        },
        send,
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (retry >= retries || !retriable(error)) throw modelError(error, where);
      const headers = error instanceof sdk().APIError ? error.headers : undefined;
      await pause(retryWait(retry, headers), signal);
    }
  }
}

/**
 * Faults worth another try, as the OpenAI client itself judges them: no answer in time, no
 * connection, or a status that says "later" (408, 409, 429, 5xx), unless the server's
 * `x-should-retry` header says otherwise.
 */
function retriable(error: unknown): boolean {
  if (error instanceof ModelTimeoutError) return true;
  const { APIConnectionError, APIError } = sdk();
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError) || error.status === undefined) return false;
  const should = error.headers?.get("x-should-retry");
  if (should === "true") return true;
  if (should === "false") return false;
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

/** Maps the client's errors onto memlane's typed ones. */
function modelError(error: unknown, where: string): Error {
  if (error instanceof MemlaneError) return error;
  if (!loaded) return error as Error;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = loaded;
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new ModelTimeoutError(`The model server at ${where} did not answer in time`, { where }, error);
  if (error instanceof APIConnectionError)
    return new ModelUnavailableError(`Cannot reach the model server at ${where}`, { where }, error);
  if (error instanceof APIError)
    return new ModelUnavailableError(
      `The model server at ${where} answered ${error.status}: ${error.message}`,
      { where, status: error.status },
      error,
    );
  return error as Error;
}

export class OpenAICompatibleChatModel implements ChatModel {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  readonly contextWindow: number;
  private readonly client: OpenAI;
  private schemaSupported = true;

  /** @throws {InvalidInputError} `contextWindow` is not a whole number of at least 256 tokens */
  constructor(private readonly config: OpenAICompatibleConfig) {
    this.name = `openai:${config.model}`;
    this.contextWindow =
      config.contextWindow === undefined
        ? (knownContextWindow(config.model) ?? DEFAULT_CONTEXT_WINDOW)
        : checkContextWindow(config.contextWindow);
    this.client = client(config);
  }

  /**
   * One completion. Each request has `timeoutMs` for its whole answer and is tried again after
   * faults that may pass (see `OpenAICompatibleConfig`); a caller's `signal` ends it at once.
   * @throws {ModelTimeoutError} the last try had no complete answer within `timeoutMs`
   * @throws {ModelUnavailableError} the server cannot be reached, answers an error, or answers
   *   something that is not a completion
   */
  async generate(messages: ChatMessage[], options: GenerateOptions = {}): Promise<GenerateResult> {
    const started = performance.now();
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: this.config.model,
      messages,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    };
    if (options.jsonSchema && this.schemaSupported)
      body.response_format = {
        type: "json_schema",
        json_schema: {
          name: schemaName(options.jsonSchema.name),
          schema: options.jsonSchema.schema,
          strict: false,
        },
      };
    // The step asking travels as a header, for a proxy's logs and for test servers that answer
    // per step; servers ignore headers they do not know.
    const headers = options.task ? { [TASK_HEADER]: options.task } : undefined;
    const ask = () =>
      request(this.config, options.signal, (signal) =>
        this.client.chat.completions.create(body, { signal, ...(headers ? { headers } : {}) }),
      );
    let response: OpenAI.Chat.ChatCompletion;
    try {
      response = await ask();
    } catch (error) {
      // Some servers reject response_format; ask once more without it and let repair do the rest.
      if (!(rejected(error) && body.response_format)) throw error;
      this.schemaSupported = false;
      delete body.response_format;
      response = await ask();
    }
    if (!Array.isArray((response as { choices?: unknown }).choices))
      throw notACompletion(response, this.config.baseURL);
    const text = response.choices[0]?.message?.content ?? "";
    return {
      text,
      model: response.model || this.config.model,
      usage: {
        calls: 1,
        promptTokens: response.usage?.prompt_tokens ?? estimateMessageTokens(messages),
        completionTokens: response.usage?.completion_tokens ?? estimateTokens(text),
        latencyMs: performance.now() - started,
      },
    };
  }
}

export class OpenAICompatibleEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  private readonly client: OpenAI;
  private dims: number;

  /** `dimensions` may be left 0; it is learned from the first answer. */
  constructor(private readonly config: OpenAICompatibleConfig & { dimensions?: number; batchSize?: number }) {
    this.name = `openai:${config.model}`;
    this.dims = config.dimensions ?? 0;
    this.client = client(config);
  }

  get dimensions(): number {
    return this.dims;
  }

  /**
   * Vectors of `texts`, in batches of `batchSize`; each batch's request has the deadline and the
   * retries of a chat request.
   * @throws {ModelTimeoutError} a batch had no complete answer within `timeoutMs`
   * @throws {ModelUnavailableError} the server cannot be reached or answers something unusable
   */
  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const batch = this.config.batchSize ?? 128;
    for (let i = 0; i < texts.length; i += batch) {
      const input = texts.slice(i, i + batch).map((t) => t || " ");
      const response = await request(this.config, options.signal, (signal) =>
        this.client.embeddings.create(
          { model: this.config.model, input, encoding_format: "float" },
          { signal },
        ),
      );
      if (!Array.isArray((response as { data?: unknown }).data))
        throw notACompletion(response, this.config.baseURL);
      const data = [...response.data].sort((a, b) => a.index - b.index);
      if (data.length !== input.length)
        throw new ModelUnavailableError(
          `The embedding server returned ${data.length} vectors for ${input.length} texts`,
        );
      for (const d of data) out.push(normalize(Float32Array.from(d.embedding as number[])));
    }
    if (out[0]) this.dims = out[0].length;
    return out;
  }
}

/** A 400 answer: what a server that does not take `response_format` sends. */
function rejected(error: unknown): boolean {
  return error instanceof ModelUnavailableError && error.details.status === 400;
}

/** OpenAI accepts schema names of letters, digits, "_" and "-" only (step names hold dots). */
function schemaName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/**
 * A 200 answer that is not what an OpenAI-compatible server sends (an HTML login page from a
 * proxy, a text error): a typed error saying what came back, not a TypeError further on.
 */
function notACompletion(response: unknown, where: string): ModelUnavailableError {
  const shown = typeof response === "string" ? response : JSON.stringify(response);
  return new ModelUnavailableError(
    `The server at ${where} answered with something that is not an OpenAI-compatible response: ${String(shown).slice(0, 120)}`,
    { where },
  );
}
