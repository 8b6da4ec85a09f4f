/**
 * `memlane/testing`: the doubles memlane's own tests use, for yours — a scripted chat model that
 * plays every built-in thinking step by name, a deterministic hashing embedder, an engine on an
 * in-memory store, row builders, and the conformance suite every MemoryStore must pass
 * (`runStoreConformance`, on node:test).
 */
export { HashEmbedder } from "../models/hash-embedder.js";
export { type ScriptedAnswer, ScriptedChatModel } from "../models/test-doubles.js";
export { type IngestJobStoreSubject, runIngestJobStoreConformance } from "./ingest-job-store-conformance.js";
export { type KeyStoreFactory, runKeyStoreConformance } from "./key-store-conformance.js";
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
