/**
 * The usual way in: `openMemlane` builds the ports from names (or takes instances) and hands them
 * to the facade.
 */
import { CachedEmbedder } from "../models/cached-embedder.js";
import { createStrategy, DEFAULT_STRATEGY } from "../strategies/registry.js";
import { parseInput, tenantSchema } from "./api.js";
import {
  checkConfig,
  type MemlaneConfig,
  resolveChat,
  resolveCognition,
  resolveEmbedder,
  resolveQueue,
  resolveRetriever,
  resolveStore,
  retrieverOptions,
} from "./config.js";
import { consoleLogger } from "./logger.js";
import { Memlane } from "./memlane.js";

/**
 * Opens memlane: a store, a strategy, an embedder and a cognition engine (offline unless a chat
 * model is set), from names or instances.
 * @example const mem = await openMemlane({ store: "sqlite:./memlane.db", strategy: "carecall" });
 * @throws {InvalidInputError} an unknown option (`details.field` names it), or an unknown strategy, embedder or cognition name
 * @throws {UnsupportedError} a port instance of another specification version
 * @throws {StoreUnavailableError} the database cannot be opened
 */
export async function openMemlane(config: MemlaneConfig = {}): Promise<Memlane> {
  checkConfig(config);
  parseInput(tenantSchema, config.tenant ?? "default", "tenant");
  // Checked before the store opens, so that a refused option leaves nothing open behind it.
  retrieverOptions(config.indexBudget, config.logger ?? consoleLogger, config.replica);
  const registered = config.strategies ?? [];
  const strategy =
    typeof config.strategy === "object"
      ? config.strategy
      : (registered.find((s) => s.name === config.strategy) ??
        createStrategy(config.strategy ?? DEFAULT_STRATEGY));
  const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
  const chat = resolveChat(config.chat);
  const cognition = resolveCognition(config, chat, embedder);
  const store = await resolveStore(config.store, config);
  return new Memlane({
    tenant: config.tenant,
    store,
    cognition,
    embedder,
    chat,
    strategy,
    strategies: registered,
    logger: config.logger,
    retriever: resolveRetriever(
      config.retriever,
      store,
      embedder,
      retrieverOptions(config.indexBudget, config.logger ?? consoleLogger, config.replica),
    ),
    queue: await resolveQueue(config),
    perTurn: config.perTurn,
    maxTurnChars: config.maxTurnChars,
    indexBudget: config.indexBudget,
    replica: config.replica,
    maxPendingJobs: config.maxPendingJobs,
    replyWindow: config.replyWindow,
    standing: config.standing,
    // An embedder built here from a name is ours to close; one passed in belongs to the caller.
    owned: typeof config.embedder === "object" ? [] : [embedder],
  });
}
