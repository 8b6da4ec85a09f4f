/**
 * A local GGUF model through node-llama-cpp (an optional dependency). Runs on the CPU with
 * `threads` set to the machine's cores: its default oversubscribes small machines badly.
 * Structured output is enforced while sampling, by a grammar built from the JSON schema.
 */
import { availableParallelism } from "node:os";
import { ModelUnavailableError } from "../core/errors.js";
import type { ChatMessage, ChatModel, GenerateOptions, GenerateResult } from "./chat-model.js";

export interface GgufConfig {
  modelPath: string;
  /** CPU threads for evaluation; default: the machine's available cores. */
  threads?: number;
  contextSize?: number;
  /** Sampling seed, for repeatable answers. */
  seed?: number;
}

// node-llama-cpp is optional and large; its types are kept loose so the build never needs it.
// biome-ignore lint/suspicious/noExplicitAny: dynamic optional module
type Any = any;

export class GgufChatModel implements ChatModel {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  private state: Promise<{ lib: Any; llama: Any; model: Any; context: Any }> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly config: GgufConfig) {
    this.name = `gguf:${config.modelPath.split(/[\\/]/).pop()}`;
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
        const context = await model.createContext({ contextSize: this.config.contextSize ?? 2048, threads });
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

  /** One generation at a time: a context has one sequence here. */
  generate(messages: ChatMessage[], options: GenerateOptions = {}): Promise<GenerateResult> {
    const run = this.queue.then(() => this.generateNow(messages, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async generateNow(messages: ChatMessage[], options: GenerateOptions): Promise<GenerateResult> {
    const started = performance.now();
    const { lib, llama, model, context } = await this.load();
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

  async close(): Promise<void> {
    if (!this.state) return;
    const { llama, model, context } = await this.state.catch(() => ({}) as Any);
    await context?.dispose?.();
    await model?.dispose?.();
    await llama?.dispose?.();
    this.state = null;
  }
}
