/** `memlane inspect`: what the store holds, per agent. */
import type { Command } from "commander";
import { NotFoundError } from "../../core/errors.js";
import { LEFT_BY_INGEST } from "../../core/session-meta.js";
import { formatDay } from "../../core/time.js";
import { memoryLine, operationLine, shown } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { color, print, printJson } from "../output.js";

/** Finds which agent holds a memory when the user gave only its id. */
export async function agentOf(
  mem: Awaited<ReturnType<typeof open>>,
  memoryId: string,
  agent?: string,
): Promise<string> {
  if (agent) return agent;
  for (const a of await mem.agents()) if (await mem.getMemory(a, memoryId)) return a;
  throw new NotFoundError(`No memory "${memoryId}" in tenant "${mem.tenantId}"`);
}

export function registerInspect(program: Command): void {
  program
    .command("inspect")
    .description("what the store holds: agents, sessions, memories, operations and failures")
    .option("--agent <agent>", "one agent in detail")
    .option("--memories", "list the agent's memories too")
    .option("--all", "with --memories: include superseded memories")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { agent?: string; memories?: boolean; all?: boolean }
      >();
      const mem = await open(opts, { existing: true });
      try {
        const agents = opts.agent ? [opts.agent] : await mem.agents();
        const views = [];
        for (const agent of agents) {
          const view = await mem.inspect(agent);
          const memories = opts.memories
            ? await mem.memories(agent, opts.all ? { status: "any" } : {})
            : undefined;
          views.push({ ...view, ...(memories ? { memoryList: memories } : {}) });
        }
        if (opts.json) return printJson({ tenant: mem.tenantId, agents: views });
        if (views.length === 0) return print(color.dim("(the store is empty)"));
        for (const v of views) {
          print(color.bold(shown(v.agent)));
          print(
            `  ${v.sessions} sessions, ${v.turns} turns, memories ${JSON.stringify(v.memories)}, ${v.edges} edges, ${v.embeddings} vectors`,
          );
          print(`  operations ${JSON.stringify(v.operations)}`);
          for (const s of v.sessionList)
            print(
              `  ${color.dim(shown(s.id))} ${formatDay(s.at)} with ${shown(s.partners.join(", "))} — ${s.status} (${s.strategy})`,
            );
          for (const w of v.waiting)
            print(
              color.yellow(
                shown(
                  w.session.status === "open" && w.session.meta[LEFT_BY_INGEST] === true
                    ? `  ${w.session.id} is open with ${w.turns} turns, left by an ingest that was stopped: run the same \`memlane ingest\` again, which feeds it the rest of its turns and finishes it (a retry would end it with only these)`
                    : `  ${w.session.id} is ${w.session.status} with ${w.turns} turns not yet in memory${w.session.status === "open" ? " (still talking, or left by a killed chat)" : ""}: when no one is still talking in it, \`memlane retry --agent ${v.agent} --session ${w.session.id}\` finishes it`,
                ),
              ),
            );
          if (v.failures.length) {
            print(
              color.red(
                `  ${v.failures.length} failed operations waiting for a retry (per-turn work or consolidations; run \`memlane retry --agent ${v.agent}\`):`,
              ),
            );
            for (const f of v.failures) print(`    ${operationLine(f)}`);
          }
          for (const m of v.memoryList ?? []) print(`  ${memoryLine(m)}`);
        }
      } finally {
        await mem.close();
      }
    });
}
