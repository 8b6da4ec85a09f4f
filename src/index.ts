/**
 * memlane: long-term memory for conversational agents. The public entry points.
 */
export type {
  Cognition,
  CognitionResult,
  Prompt,
  ReplyInput,
  SummarizeInput,
} from "./cognition/cognition.js";
export { LlmCognition } from "./cognition/llm/llm-cognition.js";
export { OfflineCognition } from "./cognition/offline/offline-cognition.js";
export * from "./core/errors.js";
export type { Recall, RecallHit } from "./core/recall.js";
export { formatDay, parseConversationTime, resolveRelativeTime } from "./core/time.js";
export type * from "./core/types.js";
export type { ChatConfig, EmbedderConfig, MemlaneConfig } from "./engine/config.js";
export type { JobInfo, MemlaneEvents } from "./engine/events.js";
export { isLocomo, type LocomoSample, readLocomo } from "./engine/formats/locomo.js";
export { type Transcript, validateTranscript } from "./engine/formats/transcript.js";
export type { IngestProgress, IngestReport } from "./engine/ingest.js";
export {
  type HistoryView,
  type InspectView,
  Memlane,
  openMemlane,
  type RecallOptions,
  type SessionOptions,
} from "./engine/memlane.js";
export { SessionHandle } from "./engine/session-handle.js";
export type { TimelineView } from "./engine/timeline.js";
export type { ChatMessage, ChatModel, GenerateOptions, GenerateResult } from "./models/chat-model.js";
export type { Embedder } from "./models/embedder.js";
export { GgufChatModel } from "./models/llama-cpp.js";
export { OpenAICompatibleChatModel, OpenAICompatibleEmbedder } from "./models/openai-compatible.js";
export { generateObject } from "./models/structured.js";
export { HashEmbedder, ScriptedChatModel } from "./models/test-doubles.js";
export { UniversalSentenceEncoder } from "./models/use-embedder.js";
export type { MemoryStore, WriteBatch } from "./store/memory-store.js";
export { openSqliteStore, SqliteStore } from "./store/sqlite/sqlite-store.js";
export { createStrategy, strategyNames } from "./strategies/registry.js";
export type { Strategy } from "./strategies/strategy.js";
