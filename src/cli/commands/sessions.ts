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
import { metaFilterOf } from "./memories-list.js";

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
    .option(
      "--meta <field=value>",
      "only sessions whose meta has it (field=a,b: either); repeatable",
      (v, all: string[]) => [...all, v],
      [],
    )
    .option("--after <time>", "only sessions at or after this time")
    .option("--before <time>", "only sessions before this time")
    .option("--limit <n>", "sessions in the page (1 to 1000; default 100)")
    .option("--cursor <cursor>", "the page after the one that printed this cursor")
    .option("--newest", "newest first")
    .addHelpText(
      "after",
      "\nTo discard an open session and what it holds instead of closing it: memlane forget --session <id> --yes",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & {
          agent: string;
          open?: boolean;
          status?: string;
          partner?: string;
          meta: string[];
          after?: string;
          before?: string;
          limit?: string;
          cursor?: string;
          newest?: boolean;
        }
      >();
      const agent = agentGiven(opts.agent);
      const status = (opts.open ? "open" : opts.status) as Status | undefined;
      const mem = await open(opts, { existing: true });
      try {
        const page = await mem.listSessions(agent, {
          ...(status ? { status } : {}),
          ...(opts.partner ? { partner: opts.partner } : {}),
          meta: metaFilterOf(opts.meta),
          after: opts.after,
          before: opts.before,
          limit: opts.limit === undefined ? undefined : Number(opts.limit),
          cursor: opts.cursor,
          newest: opts.newest,
        });
        if (opts.json) return printJson({ sessions: page.items, nextCursor: page.nextCursor });
        for (const s of page.items) print(sessionLine(s));
        if (page.items.length === 0) note("no sessions");
        if (page.nextCursor) note(`more: add --cursor ${page.nextCursor}`);
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
