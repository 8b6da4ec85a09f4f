/**
 * `memlane/testing`: the doubles memlane's own tests use, for yours — a scripted chat model that
 * plays every built-in thinking step by name, a deterministic hashing embedder, an engine on an
 * in-memory store, row builders, the conformance suite every MemoryStore must pass
 * (`runStoreConformance`, on node:test), and a loopback OpenAI-compatible server that slips the
 * way real models do (`startMisbehavingModel`), with the scenario that plays a strategy against it
 * (`runModelBehaviour`).
 */
export { HashEmbedder } from "../models/hash-embedder.js";
export { type ScriptedAnswer, ScriptedChatModel } from "../models/test-doubles.js";
export { type IngestJobStoreSubject, runIngestJobStoreConformance } from "./ingest-job-store-conformance.js";
export { type KeyStoreFactory, runKeyStoreConformance } from "./key-store-conformance.js";
export {
  type MisbehavingModel,
  type MisbehavingModelOptions,
  type MisbehavingModelStats,
  MODEL_FAMILIES,
  type ModelFamily,
  type SchemaSupport,
  STRUCTURED_FAMILIES,
  startMisbehavingModel,
} from "./misbehaving-model.js";
export { type ModelBehaviourOutcome, type ModelBehaviourRun, runModelBehaviour } from "./model-behaviour.js";
export {
  findPostgresBinaries,
  freePort,
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "./postgres-cluster.js";
export * as rows from "./rows.js";
export { type ScriptedSteps, type StepAnswer, scriptedLlm } from "./scripted-llm.js";
export { runStoreConformance, type StoreFactory } from "./store-conformance.js";
export { testMemlane } from "./test-memlane.js";
