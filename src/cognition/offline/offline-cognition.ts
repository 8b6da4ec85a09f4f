/**
 * The offline cognition engine: every thinking step done without a language model, from the
 * bundled embedder and NLP. A real product surface, measured like any other engine.
 */
import { emptyUsage, type Statement } from "../../core/types.js";
import { cosine } from "../../core/vector.js";
import type { Embedder } from "../../models/embedder.js";
import type {
  ClassifyPairsInput,
  Cognition,
  CognitionResult,
  PairDecision,
  ReplyInput,
  SummarizeInput,
} from "../cognition.js";
import { classifyPair, fuseOffline } from "./pair-operator.js";
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

  async classifyPairs(input: ClassifyPairsInput): Promise<CognitionResult<PairDecision[]>> {
    const started = performance.now();
    const texts = [...new Set(input.pairs.flatMap((p) => [p.memory, p.summary]))];
    const vectors = new Map((await this.embedder.embed(texts)).map((v, i) => [texts[i]!, v]));
    const value = input.pairs.map((p) =>
      classifyPair(
        p.memory,
        p.summary,
        input.about,
        { cosine: cosine(vectors.get(p.memory)!, vectors.get(p.summary)!) },
        input.fusion ?? true,
      ),
    );
    return { value, model: this.name, usage: { ...emptyUsage(), latencyMs: performance.now() - started } };
  }

  async fuse(input: { about: string; memory: string; summary: string }): Promise<CognitionResult<string>> {
    return {
      value: fuseOffline(input.memory, input.summary, input.about),
      model: this.name,
      usage: emptyUsage(),
    };
  }

  async reply(input: ReplyInput): Promise<CognitionResult<string>> {
    return { value: replyOffline(input), model: this.name, usage: emptyUsage() };
  }
}
