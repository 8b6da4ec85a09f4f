/**
 * The offline cognition engine: every thinking step done without a language model, from the
 * bundled embedder and NLP. A real product surface, measured like any other engine.
 */
import { emptyUsage, type Statement } from "../../core/types.js";
import type { Embedder } from "../../models/embedder.js";
import type { Cognition, CognitionResult, ReplyInput, SummarizeInput } from "../cognition.js";
import { replyOffline } from "./reply.js";
import { type OfflineSummarizerOptions, summarizeOffline } from "./summarize.js";

export class OfflineCognition implements Cognition {
  readonly name = "offline";

  constructor(
    private readonly embedder: Embedder,
    private readonly options: { summarizer?: OfflineSummarizerOptions } = {},
  ) {}

  async summarize(input: SummarizeInput): Promise<CognitionResult<Statement[]>> {
    const started = performance.now();
    const value = await summarizeOffline(input, this.embedder, this.options.summarizer);
    return { value, model: this.name, usage: { ...emptyUsage(), latencyMs: performance.now() - started } };
  }

  async reply(input: ReplyInput): Promise<CognitionResult<string>> {
    return { value: replyOffline(input), model: this.name, usage: emptyUsage() };
  }
}
