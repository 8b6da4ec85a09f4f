/**
 * The LLM cognition engine: each thinking step is one prompt with a zod schema, run through
 * generateObject (repair and retry). A SchemaMismatchError escapes to the engine, which records
 * the failed operation with its inputs.
 */

import type { PairLabelWithFusion } from "../../core/memory-update.js";
import { RELATIONS_OR_NONE, type RelationOrNone } from "../../core/relations.js";
import type { Statement } from "../../core/types.js";
import { addUsage, emptyUsage } from "../../core/types.js";
import type { ChatMessage, ChatModel } from "../../models/chat-model.js";
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
import { decisionsSchema } from "./batch-decisions.js";
import { fuseMessages, fuseSchema, pairLabels, pairMessages } from "./pair-prompt.js";
import { summaryMessages, summarySchema } from "./summarize-prompt.js";
import {
  REASONING_INSTRUCTION,
  reasonedReplySchema,
  refineMessages,
  refineSchema,
  relationMessages,
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

  /** CareCall's operator, batched: a batch whose answer misses or repeats a pair is retried. */
  async classifyPairs(input: ClassifyPairsInput): Promise<CognitionResult<PairDecision[]>> {
    const result = await this.decideInBatches(
      "pair_operations",
      input.pairs,
      pairLabels(input.fusion ?? true),
      (pairs) => pairMessages({ ...input, pairs }),
    );
    return {
      ...result,
      value: result.value.map((d) => ({ label: d.label as PairLabelWithFusion, rationale: d.why })),
    };
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

  /** Theanine's linking: all pairs of a session in a few batched calls, not one per memory. */
  async linkRelations(input: {
    about: string;
    pairs: MemoryPair[];
  }): Promise<CognitionResult<RelationDecision[]>> {
    const result = await this.decideInBatches("memory_links", input.pairs, RELATIONS_OR_NONE, (pairs) =>
      relationMessages(input.about, pairs),
    );
    return {
      ...result,
      value: result.value.map((d) => ({ relation: d.label as RelationOrNone, rationale: d.why })),
    };
  }

  /**
   * Numbered items go to the model in batches (CareCall's one-call-per-pair cost is its own stated
   * limit); answers come back in the one decisions shape, in item order.
   */
  private async decideInBatches<T>(
    name: string,
    items: T[],
    labels: readonly string[],
    messages: (batch: T[]) => ChatMessage[],
  ): Promise<CognitionResult<{ label: string; why: string }[]>> {
    const size = this.options.pairBatch ?? 40;
    const value: { label: string; why: string }[] = [];
    let usage = emptyUsage();
    let model = this.name;
    for (let i = 0; i < items.length; i += size) {
      const batch = items.slice(i, i + size);
      const result = await generateObject(this.model, {
        name,
        schema: decisionsSchema(labels, batch.length),
        messages: messages(batch),
        retries: this.options.retries,
        temperature: 0,
      });
      usage = addUsage(usage, result.usage);
      model = result.model;
      const byPair = new Map(result.object.decisions.map((d) => [d.pair, d]));
      for (let p = 0; p < batch.length; p++)
        value.push({ label: byPair.get(p)!.label, why: byPair.get(p)!.why });
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
