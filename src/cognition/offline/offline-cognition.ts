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
  MemoryPair,
  PairDecision,
  RefineInput,
  RelationDecision,
  ReplyInput,
  SummarizeInput,
} from "../cognition.js";
import { classifyPair, fuseOffline } from "./pair-operator.js";
import { refineOffline } from "./refine.js";
import { gist, relateOffline } from "./relation-linker.js";
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

  async linkRelations(input: {
    about: string;
    pairs: MemoryPair[];
  }): Promise<CognitionResult<RelationDecision[]>> {
    const started = performance.now();
    const texts = [...new Set(input.pairs.flatMap((p) => [p.older.text, p.newer.text]))];
    const vectors = new Map(
      (await this.embedder.embed(texts.map((t) => gist(t, input.about)))).map((v, i) => [texts[i]!, v]),
    );
    const value = input.pairs.map((p) =>
      relateOffline(
        p.older.text,
        p.newer.text,
        input.about,
        cosine(vectors.get(p.older.text)!, vectors.get(p.newer.text)!),
      ),
    );
    return { value, model: this.name, usage: { ...emptyUsage(), latencyMs: performance.now() - started } };
  }

  async refineTimeline(input: RefineInput): Promise<CognitionResult<string[]>> {
    const started = performance.now();
    const value = await refineOffline(input, this.embedder);
    return { value, model: this.name, usage: { ...emptyUsage(), latencyMs: performance.now() - started } };
  }

  async reply(input: ReplyInput): Promise<CognitionResult<string>> {
    return { value: replyOffline(input), model: this.name, usage: emptyUsage() };
  }
}
