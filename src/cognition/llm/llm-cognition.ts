/**
 * The LLM cognition engine: each thinking step is one prompt with a zod schema, run through
 * generateObject (repair and retry). A SchemaMismatchError escapes to the engine, which records
 * the failed operation with its inputs.
 */
import type { Statement } from "../../core/types.js";
import type { ChatModel } from "../../models/chat-model.js";
import { generateObject } from "../../models/structured.js";
import type { Cognition, CognitionResult, ReplyInput, SummarizeInput } from "../cognition.js";
import { summaryMessages, summarySchema } from "./summarize-prompt.js";

export class LlmCognition implements Cognition {
  readonly name: string;

  constructor(
    private readonly model: ChatModel,
    private readonly options: { retries?: number; temperature?: number } = {},
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

  async reply(input: ReplyInput): Promise<CognitionResult<string>> {
    const result = await this.model.generate(
      [{ role: "system", content: input.prompt.system }, ...input.prompt.messages],
      {
        temperature: this.options.temperature ?? 0.7,
        maxTokens: 400,
      },
    );
    return { value: result.text.trim(), usage: result.usage, model: result.model };
  }
}
