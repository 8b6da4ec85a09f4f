/**
 * `memlane sessions`: an agent's sessions, the abandoned open ones first among what users look
 * for (`--open`), and `memlane sessions close` to end them. A session left open holds turns no
 * consolidation has read; closing it consolidates them, and one with no turns simply ends. To
 * discard a session instead, `memlane forget --session <id> --yes` deletes it and its memory.
 */
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { formatDay } from "../../core/time.js";
import type { Session } from "../../core/types.js";
import { shown } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { note, print, printJson } from "../output.js";

type Status = "open" | "closed" | "consolidated" | "failed";

/** The agent named with --agent (before or after `close`), or a typed error saying so. */
function agentGiven(agent: string | undefined): string {
  if (!agent) throw new InvalidInputError("Say whose sessions: --agent <agent>", { field: "agent" });
  return agent;
}

function sessionLine(s: Session): string {
  return `${s.id}  ${s.status.padEnd(12)} ${formatDay(s.at)}  with ${s.partners.map(shown).join(", ")}`;
}

export function registerSessions(program: Command): void {
  const sessions = program
    .command("sessions")
    .description("list an agent's sessions (--open: the ones never closed); `sessions close` ends them")
    .option("--agent <agent>", "whose sessions (required)")
    .option("--open", "only sessions never closed (abandoned ones among them)")
    .option("--status <status>", "only sessions in this status: open, closed, consolidated or failed")
    .option("--partner <partner>", "only sessions this partner took part in")
    .addHelpText(
      "after",
      "\nTo discard an open session and what it holds instead of closing it: memlane forget --session <id> --yes",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { agent: string; open?: boolean; status?: string; partner?: string }
      >();
      const agent = agentGiven(opts.agent);
      const status = (opts.open ? "open" : opts.status) as Status | undefined;
      const mem = await open(opts, { existing: true });
      try {
        const list = await mem.sessions(agent, {
          ...(status ? { status } : {}),
          ...(opts.partner ? { partner: opts.partner } : {}),
        });
        if (opts.json) return printJson({ sessions: list });
        for (const s of list) print(sessionLine(s));
        if (list.length === 0) note("no sessions");
      } finally {
        await mem.close();
      }
    });

  sessions
    .command("close <session-ids...>")
    .description("close open sessions and consolidate them (one with no turns ends with nothing to do)")
    .option("--agent <agent>", "whose sessions (else the parent's --agent)")
    .action(async (ids: string[], _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string }>();
      const agent = agentGiven(opts.agent);
      const mem = await open(opts, { existing: true });
      try {
        const closed: { sessionId: string; state: string }[] = [];
        for (const id of ids) {
          const { job, done } = await mem.closeSession(agent, id);
          const state = job ? ((await done)?.state ?? "done") : "ended (no turns)";
          closed.push({ sessionId: id, state });
          if (!opts.json) print(`${id}: ${state}`);
        }
        if (opts.json) printJson({ closed });
      } finally {
        await mem.close();
      }
    });
}
