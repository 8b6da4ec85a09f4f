/**
 * `npm run bench <name>`: benchmarks that print figures (never timed unit tests).
 *   ingest [file] [--strategy S] [--embedder use|hash]  ingest: time, turns/s, DB size, peak RSS (default LoCoMo)
 *   llm-cost [file] [--strategy S]                       model calls and tokens per session with LLM cognition
 *                                                        (scripted double; default the demo conversation)
 *   timelines [file] [--embedder use|hash]               theanine offline: links by relation, timeline lengths
 */
import { benchIngest } from "./ingest.js";
import { benchLlmCost } from "./llm-cost.js";
import { benchTimelines } from "./timelines.js";

const [name, ...args] = process.argv.slice(2);
const benches: Record<string, (args: string[]) => Promise<void>> = {
  ingest: benchIngest,
  "llm-cost": benchLlmCost,
  timelines: benchTimelines,
};
const bench = name ? benches[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench <${Object.keys(benches).join("|")}> [args]`);
  process.exit(2);
}
await bench(args);
