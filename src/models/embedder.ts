/** The Embedder port, version 1: texts in, one vector per text out, in order. */
import { definePort } from "../core/specification.js";
export interface Embedder {
  readonly specificationVersion: typeof EMBEDDER_SPECIFICATION.version;
  /** Stable name of the model; stored beside every vector so models never mix. */
  readonly name: string;
  readonly dimensions: number;
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  /**
   * Loads whatever the first embed would load (a model, worker threads), so that no later call
   * pays for it; optional, and safe to call more than once. A server calls it before it serves.
   */
  warmUp?(): Promise<void>;
  /** Releases threads or connections the embedder holds, if any. */
  close?(): Promise<void>;
}

/** The Embedder port's specification: the version its implementations declare, the methods they have. */
export const EMBEDDER_SPECIFICATION = definePort("Embedder", "v1", ["embed"]);
