/**
 * The offline cognition engine: runs a step's offline method, with the bundled sentence encoder
 * and NLP, no language model. A real product surface, measured like any other engine; its cost
 * is the time it took.
 */

import { emptyUsage } from "../../core/types.js";
import { breathe } from "../../core/yield-to-loop.js";
import type { Embedder } from "../../models/embedder.js";
import {
  type Cognition,
  type CognitionResult,
  checkStepInput,
  type RunOptions,
  tagStepError,
} from "../cognition.js";
import type { LearnedModels, Step } from "../step.js";

export class OfflineCognition implements Cognition {
  readonly specificationVersion = "v1" as const;
  readonly name = "offline";

  /** `models` replaces the shipped trained models (null for a role: the hand-written rules). */
  constructor(
    private readonly embedder: Embedder,
    private readonly models: LearnedModels = {},
  ) {}

  async run<I, O, A>(step: Step<I, O, A>, input: I, options: RunOptions = {}): Promise<CognitionResult<O>> {
    checkStepInput(step, input);
    // A step's work is synchronous parsing: let the event loop run between steps.
    await breathe();
    options.signal?.throwIfAborted();
    const started = performance.now();
    try {
      const value = await step.offline(input, {
        embedder: this.embedder,
        signal: options.signal,
        models: this.models,
      });
      return { value, model: this.name, usage: { ...emptyUsage(), latencyMs: performance.now() - started } };
    } catch (error) {
      throw tagStepError(error, step);
    }
  }
}
