/** `memlane forget` (deletes for real) and `memlane retry` (runs failed work again). */
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { shown } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { print, printJson } from "../output.js";
import { failure } from "./ingest.js";

export function registerForget(program: Command): void {
  program
    .command("forget")
    .description("delete for real: memories, turns, vectors, edges and operation payloads (cannot be undone)")
    .requiredOption("--agent <agent>", "whose memory")
    .option("--about <subject>", "everything about this subject, and the turns they spoke")
    .option("--memory <ids...>", "these memories")
    .option("--session <id>", "this session and all memory drawn from it")
    .option("--yes", "confirm: nothing is deleted without it")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { agent: string; about?: string; memory?: string[]; session?: string; yes?: boolean }
      >();
      if (!opts.about && !opts.memory?.length && !opts.session)
        throw new InvalidInputError("Say what to forget: --about, --memory or --session");
      if (!opts.yes) throw new InvalidInputError("forget deletes for good; add --yes to confirm");
      const mem = await open(opts, { existing: true });
      try {
        const report = await mem.forget({
          agent: opts.agent,
          about: opts.about,
          memoryIds: opts.memory,
          sessionId: opts.session,
        });
        if (opts.json) return printJson(report);
        print(
          `forgot ${report.memories} memories, ${report.turns} turns, ${report.sessions} sessions, ${report.edges} edges, ${report.embeddings} vectors, ${report.operations} operations`,
        );
      } finally {
        await mem.close();
      }
    });

  program
    .command("retry")
    .description(
      "run again the per-turn work that failed and the consolidations that failed or were interrupted",
    )
    .requiredOption("--agent <agent>", "whose sessions")
    .option("--session <id>", "only this session (an open one is closed and consolidated)")
    .option("--open", "also close and consolidate every open session holding turns (left by a killed chat)")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent: string; session?: string; open?: boolean }>();
      const mem = await open(opts, { existing: true });
      try {
        const report = await mem.retry(opts.agent, opts.session, { open: opts.open });
        // The exit code speaks of what this retry ran, not of other failures still waiting.
        const failedJobs = new Set(report.jobs.filter((j) => j.state === "failed").map((j) => j.sessionId));
        const failedTurns = new Set([...report.turns, ...report.steps].filter((t) => !t.ok).map((t) => t.op));
        // One code per thing that failed again: a session may hold several failed CONSOLIDATE
        // records (this retry's and earlier ones), which must not count twice.
        const codeOf = new Map<string, string>();
        for (const o of await mem.failures(opts.agent)) {
          const key = failedTurns.has(o.id)
            ? `turn ${o.id}`
            : o.type === "CONSOLIDATE" && failedJobs.has(o.sessionId ?? "")
              ? `session ${o.sessionId}`
              : null;
          if (key && !codeOf.has(key)) codeOf.set(key, (o.error ?? "").split(":")[0]!);
        }
        const codes = [
          ...[...failedJobs].map((s) => `session ${s}`),
          ...[...failedTurns].map((t) => `turn ${t}`),
        ].map((key) => ({ code: codeOf.get(key) ?? "" }));
        const tried = report.jobs.length + report.turns.length + report.steps.length;
        const problem =
          failedJobs.size + failedTurns.size ? failure(codes, undefined, tried, "retried operations") : null;
        if (opts.json) {
          printJson(report);
          if (problem) throw problem;
          return;
        }
        if (report.jobs.length === 0 && report.turns.length === 0 && report.steps.length === 0)
          print("nothing to retry");
        for (const t of report.turns) print(`per-turn work ${t.op}: ${t.ok ? "done" : "failed again"}`);
        for (const t of report.steps) print(`step item ${t.op}: ${t.ok ? "answered" : "failed again"}`);
        for (const j of report.jobs)
          print(`${j.sessionId}: ${j.state}${j.error ? ` (${shown(j.error)})` : ""}`);
        if (problem) throw problem;
      } finally {
        await mem.close();
      }
    });
}
