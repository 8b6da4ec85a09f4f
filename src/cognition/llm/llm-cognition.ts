/**
 * The LLM cognition engine: each thinking step is one prompt with a zod schema, run through
 * generateObject (repair and retry). A SchemaMismatchError escapes to the engine, which records
 * the failed operation with its inputs.
 */

import type { RelationOrNone } from "../../core/relations.js";
import type { Statement } from "../../core/types.js";
import { addUsage, emptyUsage } from "../../core/types.js";
import type { ChatModel } from "../../models/chat-model.js";
import { generateObject } from "../../models/structured.js";
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
import { fuseMessages, fuseSchema, pairMessages, pairSchema } from "./pair-prompt.js";
import { summaryMessages, summarySchema } from "./summarize-prompt.js";
import {
  REASONING_INSTRUCTION,
  reasonedReplySchema,
  refineMessages,
  refineSchema,
  relationMessages,
  relationSchema,
} from "./timeline-prompts.js";

export class LlmCognition implements Cognition {
  readonly name: string;

  constructor(
    private readonly model: ChatModel,
    private readonly options: { retries?: number; temperature?: number; pairBatch?: number } = {},
  ) {
    this.name = model.name;
  }

  async summarize(input: SummarizeInput): Promise<CognitionResult<Statement[]>> {
    const participants = [input.agent, ...input.partners];
    const result = await generateObject(this.model, {
      name: "session_summary",
      schema: summarySchema(participants, input.turns.length),
      messages: summaryMessages(input),
      retries: this.options.retries,
      temperature: this.options.temperature ?? 0,
    });
    const value: Statement[] = [];
    for (const s of result.object.statements) {
      // The schema bounds the turn numbers, so every one names a real turn.
      const turns = s.turns.map((i) => input.turns[i]!);
      value.push({
        about: s.about,
        text: s.text.trim(),
        sourceTurns: turns.map((t) => t.id),
        observedAt: turns[0]!.at || input.at,
      });
    }
    return { value, usage: result.usage, model: result.model };
  }

  /**
   * Pairs go to the model in batches (CareCall's one-call-per-pair cost is its own stated limit).
   * A batch whose answer misses or repeats a pair fails its schema and is retried.
   */
  async classifyPairs(input: ClassifyPairsInput): Promise<CognitionResult<PairDecision[]>> {
    const batch = this.options.pairBatch ?? 40;
    const value: PairDecision[] = [];
    let usage = emptyUsage();
    let model = this.name;
    for (let i = 0; i < input.pairs.length; i += batch) {
      const pairs = input.pairs.slice(i, i + batch);
      const result = await generateObject(this.model, {
        name: "pair_operations",
        schema: pairSchema(pairs.length, input.fusion ?? true),
        messages: pairMessages({ ...input, pairs }),
        retries: this.options.retries,
        temperature: 0,
      });
      usage = addUsage(usage, result.usage);
      model = result.model;
      const byPair = new Map(result.object.decisions.map((d) => [d.pair, d]));
      for (let p = 0; p < pairs.length; p++) {
        const d = byPair.get(p)!;
        value.push({ label: d.label, rationale: d.why });
      }
    }
    return { value, usage, model };
  }

  async fuse(input: { about: string; memory: string; summary: string }): Promise<CognitionResult<string>> {
    const result = await generateObject(this.model, {
      name: "fused_sentence",
      schema: fuseSchema,
      messages: fuseMessages(input),
      retries: this.options.retries,
      temperature: 0,
    });
    return { value: result.object.sentence.trim(), usage: result.usage, model: result.model };
  }

  /** All pairs of a session in batches: a few calls per session, not one per memory. */
  async linkRelations(input: {
    about: string;
    pairs: MemoryPair[];
  }): Promise<CognitionResult<RelationDecision[]>> {
    const batch = this.options.pairBatch ?? 40;
    const value: RelationDecision[] = [];
    let usage = emptyUsage();
    let model = this.name;
    for (let i = 0; i < input.pairs.length; i += batch) {
      const pairs = input.pairs.slice(i, i + batch);
      const result = await generateObject(this.model, {
        name: "memory_links",
        schema: relationSchema(pairs.length),
        messages: relationMessages(input.about, pairs),
        retries: this.options.retries,
        temperature: 0,
      });
      usage = addUsage(usage, result.usage);
      model = result.model;
      const byPair = new Map(result.object.links.map((l) => [l.pair, l]));
      for (let p = 0; p < pairs.length; p++)
        value.push({ relation: byPair.get(p)!.relation as RelationOrNone, rationale: byPair.get(p)!.why });
    }
    return { value, usage, model };
  }

  async refineTimeline(input: RefineInput): Promise<CognitionResult<string[]>> {
    const result = await generateObject(this.model, {
      name: "refined_timeline",
      schema: refineSchema,
      messages: refineMessages(input),
      retries: this.options.retries,
      temperature: 0,
    });
    return { value: result.object.lines, usage: result.usage, model: result.model };
  }

  async reply(input: ReplyInput): Promise<CognitionResult<string>> {
    const messages = [{ role: "system" as const, content: input.prompt.system }, ...input.prompt.messages];
    if (input.prompt.reasoning) {
      // Phase III of Theanine: a rationale first (kept in the operation log), then the reply.
      const result = await generateObject(this.model, {
        name: "reasoned_reply",
        schema: reasonedReplySchema,
        messages: [
          { role: "system", content: `${input.prompt.system}\n\n${REASONING_INSTRUCTION}` },
          ...input.prompt.messages,
        ],
        retries: this.options.retries,
        temperature: this.options.temperature ?? 0.7,
      });
      return {
        value: result.object.reply.trim(),
        usage: result.usage,
        model: result.model,
        rationale: result.object.rationale,
      };
    }
    const result = await this.model.generate(messages, {
      temperature: this.options.temperature ?? 0.7,
      maxTokens: 400,
    });
    return { value: result.text.trim(), usage: result.usage, model: result.model };
  }
}
