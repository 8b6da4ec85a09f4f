/**
 * A local GGUF model through node-llama-cpp (an optional dependency). Runs on the CPU with
 * `threads` set to the machine's cores: its default oversubscribes small machines badly.
 * Structured output is enforced while sampling, by a grammar built from the JSON schema.
 * Generations run one at a time; `timeoutMs` bounds each from the moment its turn comes.
 */
import { availableParallelism } from "node:os";
import { ModelUnavailableError } from "../core/errors.js";
import {
  type ChatMessage,
  type ChatModel,
  checkContextWindow,
  type GenerateOptions,
  type GenerateResult,
} from "./chat-model.js";
import { withinDeadline } from "./deadline.js";

export interface GgufConfig {
  modelPath: string;
  /** CPU threads for evaluation; default: the machine's available cores. */
  threads?: number;
  /** Tokens of context loaded for the model, prompt and answer (default 2048); prompts are sized to it. */
  contextSize?: number;
  /** Sampling seed, for repeatable answers. */
  seed?: number;
  /**
   * Deadline of one generation in ms, from when the model starts on it (after the model file is
   * loaded and earlier generations are done) to the whole answer; past it the generation is
   * stopped and the call fails with a ModelTimeoutError. Default: none, `maxTokens` alone bounds
   * a generation, since how fast a local model is depends on the machine.
   */
  timeoutMs?: number;
}

/** The context loaded when none is asked for: small, so a model loads on a small machine. */
const DEFAULT_GGUF_CONTEXT = 2048;

// node-llama-cpp is optional and large; its types are kept loose so the build never needs it.
// biome-ignore lint/suspicious/noExplicitAny: dynamic optional module
type Any = any;

export class GgufChatModel implements ChatModel {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  /** The context size loaded: the model's whole window. */
  readonly contextWindow: number;
  private state: Promise<{ lib: Any; llama: Any; model: Any; context: Any }> | null = null;
  /** Settles when the last generation asked for has really stopped. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly config: GgufConfig) {
    this.name = `gguf:${config.modelPath.split(/[\\/]/).pop()}`;
    this.contextWindow =
      config.contextSize === undefined
        ? DEFAULT_GGUF_CONTEXT
        : checkContextWindow(config.contextSize, "contextSize");
  }

  private load() {
    this.state ??= (async () => {
      let lib: Any;
      try {
        lib = await import("node-llama-cpp");
      } catch (error) {
        throw new ModelUnavailableError(
          "node-llama-cpp is not installed; run `npm install node-llama-cpp`",
          {},
          error,
        );
      }
      try {
        const threads = this.config.threads ?? availableParallelism();
        const llama = await lib.getLlama({
          gpu: false,
          build: "never",
          maxThreads: threads,
          logLevel: "error",
        });
        const model = await llama.loadModel({ modelPath: this.config.modelPath });
        const context = await model.createContext({ contextSize: this.contextWindow, threads });
        return { lib, llama, model, context };
      } catch (error) {
        throw new ModelUnavailableError(
          `Cannot load the GGUF model ${this.config.modelPath}: ${(error as Error).message}`,
          { path: this.config.modelPath },
          error,
        );
      }
    })();
    return this.state;
  }

  /**
   * One generation at a time: a context has one sequence here. A caller's abort ends the call at
   * once, also while it waits for its turn; the deadline (`timeoutMs`) counts from its turn.
   * @throws {ModelTimeoutError} the generation outlasted `timeoutMs`
   * @throws {ModelUnavailableError} node-llama-cpp is missing or the model file cannot be loaded
   */
  async generate(messages: ChatMessage[], options: GenerateOptions = {}): Promise<GenerateResult> {
    const previous = this.queue;
    let done!: () => void;
    this.queue = new Promise<void>((resolve) => {
      done = resolve;
    });
    // The next generation may start only when this one has really stopped, which after a
    // deadline or an abort is later than this call's answer: node-llama-cpp stops at its next
    // token, and the sequence is disposed of after that.
    let running: Promise<GenerateResult> | undefined;
    try {
      await untilAborted(previous, options.signal);
      const loaded = await untilAborted(this.load(), options.signal);
      return await withinDeadline(
        { ms: this.config.timeoutMs, signal: options.signal, who: `The local model ${this.name}` },
        (signal) => {
          running = this.generateNow(loaded, messages, { ...options, signal });
          return running;
        },
      );
    } finally {
      const stopped = running ?? previous;
      stopped.then(done, done);
    }
  }

  private async generateNow(
    loaded: Awaited<ReturnType<GgufChatModel["load"]>>,
    messages: ChatMessage[],
    options: GenerateOptions,
  ): Promise<GenerateResult> {
    const started = performance.now();
    const { lib, llama, model, context } = loaded;
    const system = messages
      .filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n\n");
    const dialogue = messages.filter((m) => m.role !== "system");
    const last = dialogue.pop();
    const sequence = context.getSequence();
    try {
      const session = new lib.LlamaChatSession({
        contextSequence: sequence,
        systemPrompt: system || undefined,
      });
      const history = session.getChatHistory();
      for (const m of dialogue)
        history.push(
          m.role === "user" ? { type: "user", text: m.content } : { type: "model", response: [m.content] },
        );
      session.setChatHistory(history);
      const grammar = options.jsonSchema
        ? await llama.createGrammarForJsonSchema(options.jsonSchema.schema)
        : undefined;
      const prompt = last?.content ?? "";
      let generated = 0;
      const text: string = await session.prompt(prompt, {
        onToken: (tokens: unknown[]) => {
          generated += tokens.length;
        },
        grammar,
        maxTokens: options.maxTokens ?? 512,
        temperature: options.temperature ?? 0,
        seed: this.config.seed ?? 1,
        signal: options.signal,
      });
      const promptText = messages.map((m) => m.content).join("\n");
      return {
        text,
        model: this.name,
        usage: {
          calls: 1,
          promptTokens: model.tokenize(promptText).length,
          completionTokens: generated,
          latencyMs: performance.now() - started,
        },
      };
    } finally {
      sequence.dispose();
    }
  }

  /** Frees the model, after the generations under way have stopped. */
  async close(): Promise<void> {
    await this.queue;
    if (!this.state) return;
    const { llama, model, context } = await this.state.catch(() => ({}) as Any);
    await context?.dispose?.();
    await model?.dispose?.();
    await llama?.dispose?.();
    this.state = null;
  }
}

/**
 * `promise`, or the signal's reason as soon as it aborts: a caller need not wait for a turn or a
 * model load it no longer wants. Whatever `promise` does later is left to it.
 */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
