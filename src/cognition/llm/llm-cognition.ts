/**
 * The LLM cognition engine: runs a step by sending its prompt and asking for its output schema
 * (generateObject: lenient parse, the step's prose reader, repair, retry with the error shown), in
 * batches when the step says one call cannot take every item. A batch that never fits is asked
 * again in halves down to single items; a single item that still fails takes the step's fallback
 * and is reported in the result's `failures`, so the items that parse land. Any other
 * SchemaMismatchError names the step and escapes to the engine, which records the failed
 * operation with its inputs.
 */
import { SchemaMismatchError } from "../../core/errors.js";
import { addUsage, emptyUsage, type StepWarning, type Usage } from "../../core/types.js";
import { type ChatModel, checkContextWindow } from "../../models/chat-model.js";
import { generateObject } from "../../models/structured.js";
import {
  type Cognition,
  type CognitionResult,
  checkStepInput,
  type RunOptions,
  type StepFailure,
  stepFailure,
  tagStepError,
} from "../cognition.js";
import { outputSchema, type Step } from "../step.js";
import { fitParts, type PromptBudget, promptBudget } from "./prompt-budget.js";

export interface LlmCognitionOptions {
  /** Tries after the first when an answer does not fit its schema (default 2). */
  retries?: number;
  /** Overrides every step's temperature (evaluation runs pin it). */
  temperature?: number;
  /** Most items per call for steps batched by count (default: the step's own, 40 for pair judgements). */
  batchSize?: number;
  /**
   * Tokens the model holds at once (default: the model's own `contextWindow`; a model that
   * declares none gets prompts of any size). Every prompt is sized to it (prompt-budget.ts).
   */
  contextWindow?: number;
  /** Told what a step had to leave out or could not fit; the engine logs it. */
  onWarning?: (warning: StepWarning) => void;
}

export class LlmCognition implements Cognition {
  readonly specificationVersion = "v1" as const;
  readonly name: string;
  /** The window prompts are sized to, or undefined when neither the options nor the model say. */
  readonly contextWindow?: number;

  /** @throws {InvalidInputError} `contextWindow` (given or the model's) is not a whole number of at least 256 */
  constructor(
    private readonly model: ChatModel,
    private readonly options: LlmCognitionOptions = {},
  ) {
    this.name = model.name;
    const window = options.contextWindow ?? model.contextWindow;
    if (window !== undefined) this.contextWindow = checkContextWindow(window);
  }

  async run<I, O, A>(step: Step<I, O, A>, input: I, options: RunOptions = {}): Promise<CognitionResult<O>> {
    checkStepInput(step, input);
    const budget = this.budget(step);
    // A step batched by the window alone (size Infinity) keeps it whatever `batchSize` says.
    const own = step.batch?.size ?? Number.POSITIVE_INFINITY;
    const size = Number.isFinite(own) ? (this.options.batchSize ?? own) : own;
    const { parts, warnings } = fitParts(step, input, size, budget);
    for (const warning of warnings) this.options.onWarning?.(warning);
    const values: O[] = [];
    const failures: StepFailure[] = [];
    let usage = emptyUsage();
    let model = this.name;
    try {
      for (const { part, leftOut } of parts) {
        if (leftOut) {
          values.push(step.batch!.leftOut!(part));
          continue;
        }
        const one = await this.halving(step, part, options, failures, (spent) => {
          usage = addUsage(usage, spent);
        });
        values.push(one.value);
        model = one.model;
      }
    } catch (error) {
      // Usage of the batches that did succeed is added to the failure's, so nothing spent goes unseen.
      throw tagStepError(error, step, usage);
    }
    const value = step.batch ? step.batch.join(values, input) : values[0]!;
    return {
      value,
      usage,
      model,
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(failures.length ? { failures } : {}),
    };
  }

  /** The step's token plan in this model's window, or null when the window is not known. */
  private budget<I, O, A>(step: Step<I, O, A>): PromptBudget | null {
    return this.contextWindow === undefined ? null : promptBudget(step, this.contextWindow);
  }

  /**
   * One part of a batched step; when its answer never fits (a weak model drops a decision of
   * forty), the part is asked again in two halves, and so on down to single items, so that what
   * the model can answer is kept. A single item it cannot answer takes the step's fallback and
   * is added to `failures` (without a fallback it fails the step). `spend` is told every call's
   * usage, failed calls included.
   */
  private async halving<I, O, A>(
    step: Step<I, O, A>,
    part: I,
    options: RunOptions,
    failures: StepFailure[],
    spend: (usage: Usage) => void,
  ): Promise<{ value: O; model: string }> {
    try {
      const one = await this.once(step, part, options);
      spend(one.usage);
      return one;
    } catch (error) {
      const mismatch = step.batch !== undefined && error instanceof SchemaMismatchError;
      const halves = mismatch ? halvesOf(step, part) : null;
      if (mismatch && !halves && step.fallback) {
        // One item the model cannot answer: it stands aside with the step's fallback value, and
        // the engine records it, so the other items land.
        spend((error.details as { usage?: Usage }).usage ?? emptyUsage());
        failures.push(stepFailure(step, error, step.fallback.what, this.name, part));
        return { value: step.fallback.value(part), model: this.name };
      }
      // Not split: the error carries its own cost to the caller.
      if (!halves) throw error;
      spend(((error as SchemaMismatchError).details as { usage?: Usage }).usage ?? emptyUsage());
      const values: O[] = [];
      let model = this.name;
      for (const half of halves) {
        const one = await this.halving(step, half, options, failures, spend);
        values.push(one.value);
        model = one.model;
      }
      return { value: step.batch!.join(values, part), model };
    }
  }

  private async once<I, O, A>(
    step: Step<I, O, A>,
    input: I,
    options: RunOptions,
  ): Promise<{ value: O; usage: Usage; model: string }> {
    const schema = outputSchema(step, input);
    const decode = (answer: A) => (step.decode ? step.decode(answer, input) : (answer as unknown as O));
    const temperature = this.options.temperature ?? step.temperature ?? 0;
    if (step.format === "text") {
      // Free text has nothing to repair; an unusable answer (an empty one) is asked for again.
      const attempts: { text: string; error: string }[] = [];
      let usage = emptyUsage();
      let model = this.name;
      for (let attempt = 0; attempt <= (this.options.retries ?? 2); attempt++) {
        const result = await this.model.generate(step.prompt(input), {
          temperature,
          maxTokens: step.maxTokens,
          signal: options.signal,
          task: step.name,
        });
        usage = addUsage(usage, result.usage);
        model = result.model;
        const parsed = schema.safeParse(result.text.trim());
        if (parsed.success) return { value: decode(parsed.data), usage, model };
        attempts.push({ text: result.text, error: parsed.error.message });
      }
      throw new SchemaMismatchError(`The model's answer for "${step.name}" was not usable text`, {
        attempts,
        usage,
        model,
      });
    }
    const result = await generateObject(this.model, {
      name: step.name,
      schema,
      messages: step.prompt(input),
      retries: this.options.retries,
      maxPromptTokens: this.budget(step)?.promptTokens,
      temperature,
      maxTokens: step.maxTokens,
      signal: options.signal,
      ...(step.prose ? { prose: (text: string) => step.prose!(text, input) } : {}),
    });
    return { value: decode(result.object as A), usage: result.usage, model: result.model };
  }
}

/** A batched part in two (or more), or null when it holds a single item (nothing left to split). */
function halvesOf<I, O, A>(step: Step<I, O, A>, part: I): I[] | null {
  const items = step.batch?.count?.(part) ?? 0;
  if (items < 2) return null;
  const parts = step.batch!.split(part, Math.ceil(items / 2));
  return parts.length > 1 ? parts : null;
}
