/**
 * The built-in strategies' names, in the order they are listed. Apart from the registry so that
 * naming them (the CLI's help) does not load a strategy.
 */
export const STRATEGY_NAMES = [
  "none",
  "history",
  "accumulate",
  "carecall",
  "theanine",
  "creem",
  "memochat",
  "emma",
] as const;

/** A built-in strategy's name. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];
