/**
 * memlane: long-term memory for conversational agents. The public entry points of the product:
 * the facade, every strategy and step, the SQLite store, the model adapters, the offline engine.
 * Importing it loads no adapter and no parser: Postgres (`memlane/postgres`), the HTTP server
 * (`memlane/server`), MCP (`memlane/mcp`) and the AI SDK (`memlane/ai`) are subpath exports,
 * loaded when used. Test doubles (a scripted chat model, the store conformance suite) are in
 * `memlane/testing`.
 */

export {
  type Cognition,
  type CognitionResult,
  checkCognition,
  type RunOptions,
} from "./cognition/cognition.js";
export type {
  PairDecision,
  Prompt,
  RelationDecision,
  ReplyInput,
  ReplyValue,
  SummarizeInput,
} from "./cognition/inputs.js";
export { LlmCognition, type LlmCognitionOptions } from "./cognition/llm/llm-cognition.js";
export { OfflineCognition } from "./cognition/offline/offline-cognition.js";
export {
  batchItems,
  chunkItems,
  defineStep,
  type OfflineKit,
  type PartBudget,
  type Step,
  type StepBatching,
} from "./cognition/step.js";
export * from "./core/errors.js";
export type { Recall, RecallHit } from "./core/recall.js";
export { checkSpecification, SPECIFICATION_VERSION } from "./core/specification.js";
export { formatDay, parseConversationTime, resolveRelativeTime } from "./core/time.js";
export type * from "./core/types.js";
export {
  type AddFactInput,
  addFactSchema,
  type ConversationInput,
  conversationInputSchema,
  type ForgetInput,
  forgetInputSchema,
  idSchema,
  metaFilterSchema,
  parseInput,
  perTurnSchema,
  type RecallFilter,
  type RecallInput,
  recallFilterSchema,
  recallInputSchema,
  type SessionFilter,
  type SessionInput,
  sessionFilterSchema,
  sessionInputSchema,
  type TurnInput,
  tenantSchema,
  turnInputSchema,
  type UpdateInput,
  type UpdateOptions,
  updateInputSchema,
  updateOptionsSchema,
} from "./engine/api.js";
export type { ChatConfig, EmbedderConfig, MemlaneConfig, QueueConfig } from "./engine/config.js";
export {
  type ClosedSession,
  type ClosedSessions,
  DEFAULT_MAX_PENDING_JOBS,
  InProcessJobQueue,
  type InProcessQueueOptions,
  type JobHandler,
  type JobQueue,
  type JobRequest,
} from "./engine/consolidation/job-queue.js";
export type { JobInfo, JobState, MemlaneEvents } from "./engine/events.js";
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportCounts,
  type ExportInput,
  exportInputSchema,
} from "./engine/export/export-format.js";
export type { ImportOptions, ImportReport } from "./engine/export/import-scope.js";
export type { TimelineView } from "./engine/history/timeline.js";
export { isLocomo, type LocomoSample, readLocomo } from "./engine/ingest/formats/locomo.js";
export { isMisc, MISC_FIELDS, parseMiscText, readMisc } from "./engine/ingest/formats/misc.js";
export { type Transcript, transcriptSchema, validateTranscript } from "./engine/ingest/formats/transcript.js";
export type { IngestProgress, IngestReport } from "./engine/ingest/ingest.js";
export {
  DEFAULT_LIST_PAGE,
  type ListEdgesInput,
  type ListMemoriesInput,
  type ListOperationsInput,
  type ListSessionsInput,
  type ListTurnsInput,
  listEdgesSchema,
  listMemoriesSchema,
  listOperationsSchema,
  listSessionsSchema,
  listTurnsSchema,
  MAX_LIST_PAGE,
} from "./engine/list/list-inputs.js";
export type { Page } from "./engine/list/list-page.js";
export { consoleLogger, type Logger, silentLogger } from "./engine/logger.js";
export {
  type AddResult,
  type CorrectionNote,
  type HistoryView,
  type InspectView,
  Memlane,
  type MemlaneOptions,
  type RecallOptions,
  type ReindexReport,
  type RestoreResult,
  type RetryReport,
  type SessionOptions,
  type UpdateResult,
} from "./engine/memlane.js";
export type { AddMessagesResult } from "./engine/messages/add-messages.js";
export {
  type AddMessagesInput,
  addMessagesSchema,
  MAX_MESSAGES,
  type MessageInput,
  messageSchema,
} from "./engine/messages/message-schemas.js";
export { openMemlane } from "./engine/open-memlane.js";
export { type RememberInput, type RememberResult, remember } from "./engine/remember.js";
export { reasonedReplyStep, replyStep } from "./engine/reply/reply-step.js";
export { DEFAULT_REPLY_WINDOW, type ReplyWindow } from "./engine/reply/reply-window.js";
export { Conversation } from "./engine/session/conversation.js";
export { type ReplyOptions, SessionHandle, type TurnOptions } from "./engine/session/session-handle.js";
export type { PerTurnMode } from "./engine/session/turn-path.js";
export { STANDING_SHOWN } from "./engine/standing/standing-memory.js";
export type { ChatMessage, ChatModel, GenerateOptions, GenerateResult } from "./models/chat-model.js";
export type { Embedder } from "./models/embedder.js";
export { HashEmbedder } from "./models/hash-embedder.js";
export { GgufChatModel } from "./models/llama-cpp.js";
export { OpenAICompatibleChatModel, OpenAICompatibleEmbedder } from "./models/openai-compatible.js";
export { generateObject } from "./models/structured.js";
export { UniversalSentenceEncoder } from "./models/use-embedder.js";
export { EngineCaches, type ScopeCaches } from "./retrieval/engine-caches.js";
export { InProcessRetriever } from "./retrieval/in-process-retriever.js";
export { PgvectorRetriever } from "./retrieval/pgvector-retriever.js";
export type { MemorySearch, Retriever } from "./retrieval/retriever.js";
export type {
  IngestJobChange,
  IngestJobRecord,
  IngestJobState,
  IngestJobStore,
  PendingIngestJob,
} from "./store/ingest-job-store.js";
export type { ApiKeyRecord, KeyStore } from "./store/key-store.js";
export { MemoryIngestJobStore } from "./store/memory-ingest-job-store.js";
export type {
  EdgeListFilter,
  ListPage,
  ListRequest,
  MemoryStore,
  OperationListFilter,
  ScopedBatch,
  SessionListFilter,
  TurnListFilter,
  WriteBatch,
} from "./store/memory-store.js";
export { openIngestJobStore } from "./store/open-ingest-job-store.js";
export { openKeyStore } from "./store/open-key-store.js";
export { openSqliteIngestJobStore, SqliteIngestJobStore } from "./store/sqlite/ingest-job-store.js";
export { openSqliteKeyStore, SqliteKeyStore } from "./store/sqlite/key-store.js";
export { openSqliteStore, SqliteStore } from "./store/sqlite/sqlite-store.js";
export { accumulateStrategy } from "./strategies/baselines/accumulate.js";
export { historyStrategy } from "./strategies/baselines/history.js";
export { noneStrategy } from "./strategies/baselines/none.js";
export {
  type CarecallCandidates,
  type CarecallOptions,
  carecallStrategy,
} from "./strategies/carecall/carecall.js";
export { classifyPairsStep } from "./strategies/carecall/steps/classify-pairs.js";
export { fuseStep } from "./strategies/carecall/steps/fuse.js";
export { type CreemOptions, creemStrategy } from "./strategies/creem/creem.js";
export { type EmmaOptions, type EmmaQuery, emmaStrategy } from "./strategies/emma/emma.js";
export { emmaLinkStep, type LinkJudge } from "./strategies/emma/steps/link.js";
export { type EgocentricInput, emmaSummarizeStep } from "./strategies/emma/steps/summarize.js";
export { composeReply } from "./strategies/kit/compose-reply.js";
export { summarizeStep } from "./strategies/kit/steps/summarize.js";
export {
  type MemoAttributes,
  type MemochatOptions,
  memochatStrategy,
  memoOf,
} from "./strategies/memochat/memochat.js";
export { type ChooseTopicsValue, chooseTopicsStep } from "./strategies/memochat/steps/choose-topics.js";
export { type MemoEntry, writeMemoStep } from "./strategies/memochat/steps/write-memo.js";
export { createStrategy, StrategyRegistry, strategyNames } from "./strategies/registry.js";
export type {
  RecallContext,
  ReplyContext,
  RetriedStep,
  SessionContext,
  Strategy,
  StrategyContext,
  StrategyPorts,
  TurnContext,
} from "./strategies/strategy.js";
export { linkRelationsStep } from "./strategies/theanine/steps/link-relations.js";
export { refineTimelineStep } from "./strategies/theanine/steps/refine-timeline.js";
export {
  type TheanineOptions,
  type TheanineQuery,
  theanineStrategy,
} from "./strategies/theanine/theanine.js";
