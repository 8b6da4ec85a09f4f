/**
 * Remembers recent vectors by text, so one consolidation never embeds the same sentence twice
 * (the summarizer's duplicate check and the stored memory vector share one computation).
 */
import type { Embedder } from "./embedder.js";

export class CachedEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  private readonly cache = new Map<string, Float32Array>();

  constructor(
    private readonly inner: Embedder,
    private readonly capacity = 20_000,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  get dimensions(): number {
    return this.inner.dimensions;
  }

  async embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    // Answered from this call's own vectors: more texts than the cache holds evict each other.
    const computed = new Map<string, Float32Array>();
    if (missing.length > 0) {
      const vectors = await this.inner.embed(missing, options);
      for (const [i, t] of missing.entries()) {
        computed.set(t, vectors[i]!);
        this.remember(t, vectors[i]!);
      }
    }
    return texts.map((t) => computed.get(t) ?? this.cache.get(t)!);
  }

  async warmUp(): Promise<void> {
    await this.inner.warmUp?.();
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  private remember(text: string, vector: Float32Array): void {
    if (this.cache.size >= this.capacity) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(text, vector);
  }
}
