/**
 * The fields of the facade's options objects and filters that no zod schema describes (they
 * hold functions or are the store's own filter types), for `refuseUnknownFields`; the engine's
 * own options and a reply's sit beside their types. Each list is checked against its type by the
 * compiler (`fieldsOf`), so a field added to a type is accepted the day it is added.
 */
import type { MemoryFilter } from "../core/types.js";
import { fieldsOf } from "../core/unknown-fields.js";
import type { OperationFilter, TurnFilter } from "../store/memory-store.js";
import type { IngestOptions } from "./ingest/ingest.js";

export const MEMORY_FILTER_FIELDS = fieldsOf<MemoryFilter>({
  about: true,
  sessionId: true,
  status: true,
  strategy: true,
  kind: true,
  ids: true,
  meta: true,
  observedAfter: true,
  observedBefore: true,
  validAfter: true,
  validBefore: true,
  hearing: true,
});

export const TURN_FILTER_FIELDS = fieldsOf<TurnFilter>({ sessionId: true, speaker: true, ids: true });

export const OPERATION_FILTER_FIELDS = fieldsOf<OperationFilter>({
  memoryId: true,
  sessionId: true,
  status: true,
  type: true,
  limit: true,
  newest: true,
});

export const INGEST_OPTIONS_FIELDS = fieldsOf<IngestOptions>({
  onProgress: true,
  stopAfterUnreachable: true,
});

/** `resume` and `resumeConversation`. */
export const RESUME_OPTIONS_FIELDS = ["perTurn"] as const;

/** `retry`. */
export const RETRY_OPTIONS_FIELDS = ["open"] as const;

/** `join` and `leave` of a session or a conversation. */
export const MOMENT_OPTIONS_FIELDS = ["at"] as const;
