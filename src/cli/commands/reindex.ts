/** `memlane reindex`: store the vectors an agent's turns and memories lack under the current embedder. */
import type { Command } from "commander";
import { type GlobalOptions, open } from "../options.js";
import { note, printJson } from "../output.js";

export function registerReindex(program: Command): void {
  program
    .command("reindex")
    .description(
      "embed and store the turn and memory vectors missing under the current embedder (reads never write them)",
    )
    .option("--agent <agent>", "one agent (default: every agent of the tenant)")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string }>();
      const mem = await open(opts, { existing: true });
      try {
        const agents = opts.agent ? [opts.agent] : await mem.agents();
        const reports = [];
        for (const agent of agents) {
          const report = await mem.reindex(agent);
          reports.push({ agent, ...report });
          if (!opts.json)
            note(`${agent}: ${report.turns} turn vectors, ${report.memories} memory vectors stored`);
        }
        if (opts.json) printJson({ reports });
      } finally {
        await mem.close();
      }
    });
}
