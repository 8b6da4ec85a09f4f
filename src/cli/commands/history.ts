/** `memlane history` and `memlane timeline`: one memory's operations, versions and relations. */
import type { Command } from "commander";
import { historyText, timelineText } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { print, printJson } from "../output.js";
import { agentOf } from "./inspect.js";

export function registerHistory(program: Command): void {
  program
    .command("history <memory-id>")
    .description("every operation on a memory, and what it replaced or was replaced by")
    .option("--agent <agent>", "whose memory (found automatically if omitted)")
    .action(async (id: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string }>();
      const mem = await open(opts, { existing: true });
      try {
        const view = await mem.history(await agentOf(mem, id, opts.agent), id);
        if (opts.json) return printJson(view);
        print(historyText(view));
      } finally {
        await mem.close();
      }
    });

  program
    .command("timeline <memory-id>")
    .description("the memories linked to this one (versions and relations), oldest first")
    .option("--agent <agent>", "whose memory (found automatically if omitted)")
    .action(async (id: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string }>();
      const mem = await open(opts, { existing: true });
      try {
        const view = await mem.timeline(await agentOf(mem, id, opts.agent), id);
        if (opts.json) return printJson(view);
        print(timelineText(view));
      } finally {
        await mem.close();
      }
    });
}
