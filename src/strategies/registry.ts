/** Strategies by name. The first updating strategy becomes the default once it exists. */
import { InvalidInputError } from "../core/errors.js";
import { accumulateStrategy } from "./baselines/accumulate.js";
import { historyStrategy } from "./baselines/history.js";
import { noneStrategy } from "./baselines/none.js";
import { carecallStrategy } from "./carecall/carecall.js";
import type { Strategy } from "./strategy.js";
import { theanineStrategy } from "./theanine/theanine.js";

const FACTORIES: Record<string, () => Strategy> = {
  none: noneStrategy,
  history: historyStrategy,
  accumulate: accumulateStrategy,
  carecall: carecallStrategy,
  theanine: theanineStrategy,
};

/** The first updating strategy is the default: memory that is kept current. */
export const DEFAULT_STRATEGY = "carecall";

export function strategyNames(): string[] {
  return Object.keys(FACTORIES);
}

export function createStrategy(name: string): Strategy {
  const factory = FACTORIES[name];
  if (!factory)
    throw new InvalidInputError(`Unknown strategy "${name}"; choose one of: ${strategyNames().join(", ")}`, {
      strategy: name,
    });
  return factory();
}
