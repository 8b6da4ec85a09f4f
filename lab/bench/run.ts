/**
 * `npm run bench <name>`: benchmarks that print figures (never timed unit tests).
 *   affinity [--scopes 1000] [--turns 100] [--replicas 2] [--asks 4]
 *                                                        scope affinity: index bytes per replica routed round robin
 *                                                        and by scope, then a failover onto one replica
 *   cold --stores sqlite:<file>,postgres://… [--turns 20000] [--runs 2] [--dims 256]
 *                                                        the cold load of one large scope, read by read, then the
 *                                                        first recall (the scope is filled once and kept)
 *   ingest [file] [--strategy S] [--embedder use|hash]  ingest: time, turns/s, DB size, peak RSS (default LoCoMo)
 *   live [--sizes 1000,10000,100000] [--rounds 40] [--strategy creem] [--embedders hash,use]
 *        [--parts loop,session,scopes,stalls,ingest] [--stores sqlite,pglite] [--scopes 1000] [--budget B]
 *        [--words flat,zipf]
 *                                                        an agent living with memlane: turn + recall against
 *                                                        recall alone, cold load, many scopes, event-loop stalls
 *   llm-cost [file] [--strategy S] [--context tokens]    model calls and tokens per session with LLM cognition
 *                                                        (scripted double; default the demo conversation), and
 *                                                        the largest prompt; --context sizes prompts to a window
 *   model-behaviour [--strategies S,…] [--families F,…] [--schema ignore|honour|reject] [--parts families,schema]
 *                                                        every strategy against a model that slips (loopback server):
 *                                                        replies returned, sessions landed, calls and retries per
 *                                                        family; then the retries JSON-schema output saves
 *   postgres [--sizes 10000,100000] [--queries 200] [--stores sqlite,postgres,pglite]
 *                                                        recall p50/p95 on SQLite, Postgres (exact) and PGlite +
 *                                                        pgvector HNSW (with HNSW's recall@10 against exact)
 *            [--agents 8] [--latency 250] [--workers 1,2]  then ingest turns/s through the Postgres queue with
 *                                                        one and two worker processes (scripted model, latency
 *                                                        per call simulated)
 *            [--parts analyze] [--analyze-rows 40000]    PGlite's statistics pass: its length and the longest
 *                                                        event-loop delay, against plain ANALYZE
 *   recall [--sizes 1000,10000,100000] [--queries 200] [--units memories,turns] [--skip-ingest]
 *                                                        search latency p50/p95 and memory at scale, then
 *                                                        ingest throughput (turns with embeddings)
 *   recall --signals [--sizes 10000,100000] [--queries 200] [--units turns,memories] [--words flat|zipf]
 *                                                        each recall signal's latency cost: the same questions
 *                                                        with it and without it, pair by pair
 *   timelines [file] [--embedder use|hash]               theanine offline: links by relation, timeline lengths
 *   install-size [--pack DIR] [--with "pkg …"]          what `npm install memlane` puts on disk for a SQLite-only
 *                                                        user (packs DIR, installs from the registry)
 *   serve [--clients 50] [--seconds 20] [--embedder hash|use] [--strategy S] [--list-memories 100000]
 *                                                        load test of memlane serve on loopback: p50/p95 per
 *                                                        route, errors, then no acknowledged turn lost
 *   serve --parts fairness [--scenarios turn,upload,query,forget,model] [--forget-turns 20000]
 *         [--model-delay 15] [--cli PATH]              one tenant's heavy work against another's /health,
 *                                                        recall and one-turn consolidation (fairness.ts)
 */
import { benchAffinity } from "./affinity.js";
import { flag } from "./args.js";
import { benchColdLoad } from "./cold-load.js";
import { benchFairness } from "./fairness.js";
import { benchIngest } from "./ingest.js";
import { benchInstallSize } from "./install-size.js";
import { benchLive } from "./live.js";
import { benchLlmCost } from "./llm-cost.js";
import { benchModelBehaviour } from "./model-behaviour.js";
import { benchPostgres } from "./postgres.js";
import { benchRecall } from "./recall.js";
import { benchRecallSignals } from "./recall-signals.js";
import { benchServe } from "./serve.js";
import { benchTimelines } from "./timelines.js";

const [name, ...args] = process.argv.slice(2);
const benches: Record<string, (args: string[]) => Promise<void>> = {
  affinity: benchAffinity,
  cold: benchColdLoad,
  ingest: benchIngest,
  "install-size": benchInstallSize,
  live: benchLive,
  "llm-cost": benchLlmCost,
  "model-behaviour": benchModelBehaviour,
  postgres: benchPostgres,
  recall: (a) => (a.includes("--signals") ? benchRecallSignals(a) : benchRecall(a)),
  serve: (a) => (flag(a, "parts", "") === "fairness" ? benchFairness(a) : benchServe(a)),
  timelines: benchTimelines,
};
const bench = name ? benches[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench <${Object.keys(benches).join("|")}> [args]`);
  process.exit(2);
}
await bench(args);
