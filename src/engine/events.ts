/** The engine's event stream: every recorded operation and every change of a background job. */
import { EventEmitter } from "node:events";
import type { Operation } from "../core/types.js";
import type { Logger } from "./logger.js";

export type JobState = "queued" | "running" | "done" | "failed";

export interface JobInfo {
  id: string;
  tenant: string;
  agent: string;
  sessionId: string;
  state: JobState;
  error?: string;
  queuedAt: string;
  finishedAt?: string;
  /** A queued job's place in the line as things stand (1 runs next), where the queue knows it. */
  position?: number;
}

export interface MemlaneEvents {
  operation: Operation;
  job: JobInfo;
}

export class EventStream {
  private readonly emitter = new EventEmitter();

  constructor(private readonly logger: Logger) {}

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends keyof MemlaneEvents>(event: K, listener: (payload: MemlaneEvents[K]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  emit<K extends keyof MemlaneEvents>(event: K, payload: MemlaneEvents[K]): void {
    // A listener that throws must not break the write that already happened; it is reported.
    for (const listener of this.emitter.listeners(event)) {
      try {
        (listener as (p: MemlaneEvents[K]) => void)(payload);
      } catch (error) {
        this.logger.error(`a "${event}" listener threw: ${(error as Error)?.message ?? String(error)}`, {
          event,
          error,
        });
      }
    }
  }
}
