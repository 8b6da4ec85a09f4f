/**
 * Strategies by name: the built-in ones, and any a user registers (`openMemlane({ strategies })`),
 * so a custom strategy is found again by the sessions it wrote — after a restart, by `retry`.
 */
import { InvalidInputError } from "../core/errors.js";
import { accumulateStrategy } from "./baselines/accumulate.js";
import { historyStrategy } from "./baselines/history.js";
import { noneStrategy } from "./baselines/none.js";
import { carecallStrategy } from "./carecall/carecall.js";
import { creemStrategy } from "./creem/creem.js";
import { emmaStrategy } from "./emma/emma.js";
import { memochatStrategy } from "./memochat/memochat.js";
import { STRATEGY_NAMES, type StrategyName } from "./names.js";
import { checkStrategy, type Strategy } from "./strategy.js";
import { theanineStrategy } from "./theanine/theanine.js";

const BUILT_IN: Record<StrategyName, () => Strategy> = {
  none: noneStrategy,
  history: historyStrategy,
  accumulate: accumulateStrategy,
  carecall: carecallStrategy,
  theanine: theanineStrategy,
  creem: creemStrategy,
  memochat: memochatStrategy,
  emma: emmaStrategy,
};

/** The first updating strategy is the default: memory that is kept current. */
export const DEFAULT_STRATEGY = "carecall";

/** Names of the built-in strategies. */
export function strategyNames(): string[] {
  return [...STRATEGY_NAMES];
}

/** A built-in strategy, freshly made with its paper's defaults. */
export function createStrategy(name: string): Strategy {
  const factory = (BUILT_IN as Record<string, () => Strategy>)[name];
  if (!factory)
    throw new InvalidInputError(`Unknown strategy "${name}"; choose one of: ${strategyNames().join(", ")}`, {
      field: "strategy",
      strategy: name,
    });
  return factory();
}

/** One engine's strategies: registered instances first, built-ins made on first use. */
export class StrategyRegistry {
  private readonly byName = new Map<string, Strategy>();

  constructor(registered: Strategy[] = []) {
    for (const s of registered) this.register(s);
  }

  /** Adds (or replaces) a strategy under its name, after checking its port version. */
  register(strategy: Strategy): Strategy {
    this.byName.set(checkStrategy(strategy).name, strategy);
    return strategy;
  }

  get(name: string): Strategy {
    const known = this.byName.get(name);
    if (known) return known;
    const made = createStrategy(name);
    this.byName.set(name, made);
    return made;
  }

  names(): string[] {
    return [...new Set([...strategyNames(), ...this.byName.keys()])];
  }
}
