/** The Embedder port, version 1: texts in, one vector per text out, in order. */
export interface Embedder {
  readonly specificationVersion: "v1";
  /** Stable name of the model; stored beside every vector so models never mix. */
  readonly name: string;
  readonly dimensions: number;
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  /** Releases threads or connections the embedder holds, if any. */
  close?(): Promise<void>;
}
