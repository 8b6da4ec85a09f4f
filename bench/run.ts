/**
 * `npm run bench <name>`: benchmarks that print figures (never timed unit tests).
 *   ingest [file] [--strategy S] [--embedder use|hash]  LoCoMo ingest: time, turns/s, DB size, peak RSS
 *   carecall-llm [file]                                  carecall with LLM cognition (a scripted double):
 *                                                        model calls and tokens per session
 */
import { benchCarecallLlm } from "./carecall-llm.js";
import { benchIngest } from "./ingest.js";

const [name, ...args] = process.argv.slice(2);
const benches: Record<string, (args: string[]) => Promise<void>> = {
  ingest: benchIngest,
  "carecall-llm": benchCarecallLlm,
};
const bench = name ? benches[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench <${Object.keys(benches).join("|")}> [args]`);
  process.exit(2);
}
await bench(args);
