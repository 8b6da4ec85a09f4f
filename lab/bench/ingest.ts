/** Ingest throughput on LoCoMo: wall time, turns per second, database size and peak memory. */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTranscripts } from "../../src/engine/formats/load.js";
import { openMemlane } from "../../src/engine/memlane.js";
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
  const mem = await openMemlane({ store: db, strategy, embedder });
  // Start-up (reading the file, loading the encoder in each worker) is reported apart from the rate.
  await mem.embedder.embed(Array.from({ length: 8 }, (_, i) => `warming up the encoder, text ${i}`));
  const ready = performance.now();
  let turns = 0;
  for (const t of transcripts) {
    const r = await mem.ingest(t);
    turns += r.turns;
    const stats = await mem.inspect(t.agent);
    console.log(
      `${t.agent}: ${r.sessions} sessions, ${r.turns} turns, ${stats.memories.active ?? 0} active / ${stats.memories.superseded ?? 0} superseded memories, ${r.failed} failed`,
    );
  }
  await mem.close();
  const finished = performance.now();
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
  console.log(`database: ${(size / 1024 / 1024).toFixed(2)} MiB`);
  console.log(`peak RSS: ${(peak / 1024 / 1024).toFixed(0)} MiB`);
  rmSync(dir, { recursive: true, force: true });
}
