/**
 * Ingest throughput on LoCoMo: wall time, turns per second, database size and peak memory; and
 * how much of it the embedder took (its busy time, texts per turn, and its own rate on the same
 * texts), so a rate below target says whether the encoder is the limit, and by how much.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTranscripts } from "../../src/engine/ingest/formats/load.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import type { Embedder } from "../../src/models/embedder.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { UniversalSentenceEncoder } from "../../src/models/use-embedder.js";
import { flag, LOCOMO, positional } from "./args.js";

export async function benchIngest(args: string[]): Promise<void> {
  const file = positional(args, LOCOMO);
  const strategy = flag(args, "strategy", "carecall");
  const embedder = flag(args, "embedder", "use") as "use" | "hash";
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-"));
  const db = join(dir, "bench.db");
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const transcripts = await loadTranscripts(file);
  const timed = busyTimed(embedder === "hash" ? new HashEmbedder() : new UniversalSentenceEncoder());
  const mem = await openMemlane({ store: db, strategy, embedder: timed.embedder });
  // Start-up (reading the file, loading the encoder in each worker) is reported apart from the rate.
  await mem.embedder.embed(Array.from({ length: 8 }, (_, i) => `warming up the encoder, text ${i}`));
  const ready = performance.now();
  timed.reset();
  let turns = 0;
  for (const t of transcripts) {
    const r = await mem.ingest(t);
    turns += r.turns;
    const stats = await mem.inspect(t.agent);
    console.log(
      `${t.agent}: ${r.sessions} sessions, ${r.turns} turns, ${stats.memories.active ?? 0} active / ${stats.memories.superseded ?? 0} superseded memories, ${r.failed} failed`,
    );
  }
  const finished = performance.now();
  const use = timed.read();
  // The embedder's own rate: the ingested turns' texts again, in batches of 64 (what a session's
  // turns are embedded in), with nothing else running. Straight to the embedder: the engine's
  // cache in front of it would answer texts it already embedded.
  const sample = transcripts
    .flatMap((t) => t.sessions.flatMap((s) => s.turns.map((u) => u.text)))
    .slice(0, 1024);
  const alone = performance.now();
  for (let i = 0; i < sample.length; i += 64) await timed.embedder.embed(sample.slice(i, i + 64));
  const rate = sample.length / ((performance.now() - alone) / 1000);
  await mem.close();
  const seconds = (finished - ready) / 1000;
  const startup = (ready - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const size = ["bench.db", "bench.db-wal"].reduce((sum, f) => {
    try {
      return sum + statSync(join(dir, f)).size;
    } catch {
      return sum;
    }
  }, 0);
  console.log(`strategy ${strategy}, embedder ${embedder}, offline cognition`);
  console.log(
    `ingest: ${turns} turns in ${seconds.toFixed(1)} s = ${(turns / seconds).toFixed(1)} turns/s (storing, embedding and consolidating with ${strategy})`,
  );
  console.log(
    `start-up: ${startup.toFixed(1)} s (reading the file, loading the encoder); with it ${(turns / (seconds + startup)).toFixed(1)} turns/s`,
  );
  const perTurn = use.texts / Math.max(1, turns);
  console.log(
    `embedder: ${use.texts} texts (${perTurn.toFixed(2)} per turn), busy ${(use.busy / 1000).toFixed(1)} s of ${seconds.toFixed(1)} s (${((100 * use.busy) / 1000 / seconds).toFixed(0)} %); alone it embeds ${rate.toFixed(0)} turn texts/s, a ceiling of ${(rate / perTurn).toFixed(1)} turns/s at ${perTurn.toFixed(2)} texts per turn`,
  );
  console.log(`database: ${(size / 1024 / 1024).toFixed(2)} MiB`);
  console.log(`peak RSS: ${(peak / 1024 / 1024).toFixed(0)} MiB`);
  rmSync(dir, { recursive: true, force: true });
}

/** An embedder that counts the texts it is given and the time any call of it is running. */
function busyTimed(inner: Embedder): {
  embedder: Embedder;
  reset(): void;
  read(): { texts: number; busy: number };
} {
  let texts = 0;
  let busy = 0;
  let running = 0;
  let since = 0;
  const embedder: Embedder = {
    specificationVersion: inner.specificationVersion,
    name: inner.name,
    dimensions: inner.dimensions,
    warmUp: inner.warmUp?.bind(inner),
    close: inner.close?.bind(inner),
    async embed(batch, options) {
      texts += batch.length;
      if (running++ === 0) since = performance.now();
      try {
        return await inner.embed(batch, options);
      } finally {
        if (--running === 0) busy += performance.now() - since;
      }
    },
  };
  return {
    embedder,
    reset: () => {
      texts = 0;
      busy = 0;
      if (running) since = performance.now();
    },
    read: () => ({ texts, busy: busy + (running ? performance.now() - since : 0) }),
  };
}
