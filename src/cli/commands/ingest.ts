/** `memlane ingest`: store and consolidate transcript files; the readers load when it runs. */
import type { Command } from "commander";
import { type ErrorCode, InvalidInputError, MemlaneError } from "../../core/errors.js";
import type { TranscriptFormat } from "../../engine/ingest/formats/load.js";
import { EXAMPLES, examplePath } from "../examples.js";
import { type GlobalOptions, open } from "../options.js";
import { note, print, printJson } from "../output.js";
import { progress } from "../progress.js";
import { readText } from "../read-text.js";

export function registerIngest(program: Command): void {
  program
    .command("ingest [file]")
    .description(
      "store and consolidate a transcript file (memlane or LoCoMo JSON), or a bundled --example; safe to re-run",
    )
    .option(
      "--example <name>",
      `a conversation that ships with memlane instead of a file: ${Object.keys(EXAMPLES).join(" | ")}`,
    )
    .option("--format <format>", "memlane | locomo | misc (MiSC JSONL, one episode a line) | auto", "auto")
    .option("--agent <name>", "for LoCoMo: which speaker is the agent (default speaker_a)")
    .option(
      "--stop-after <n>",
      "stop after this many sessions in a row failed because the model was unreachable (0: never)",
      "3",
    )
    .action(async (named: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { format: TranscriptFormat; agent?: string; stopAfter: string; example?: string }
      >();
      if ((named === undefined) === (opts.example === undefined))
        throw new InvalidInputError("Name a transcript file or --example, not both and not neither", {
          field: named === undefined ? "file" : "example",
        });
      const file = named ?? examplePath(opts.example!);
      const stopAfterUnreachable = Number(opts.stopAfter);
      if (!Number.isInteger(stopAfterUnreachable) || stopAfterUnreachable < 0)
        throw new InvalidInputError(`--stop-after must be a whole number, not "${opts.stopAfter}"`, {
          field: "stop-after",
        });
      // MiSC names its main speaker in every episode; an --agent would be silently ignored.
      if ((opts.format as string) === "misc" && opts.agent !== undefined)
        throw new InvalidInputError("--agent applies to LoCoMo; a MiSC episode's agent is its main speaker", {
          field: "agent",
        });
      // MiSC is JSONL, not one JSON document: its reader takes the file's text (engine/ingest/formats/misc.ts).
      const transcripts =
        (opts.format as string) === "misc"
          ? (await import("../../engine/ingest/formats/misc.js")).parseMiscText(await readText(file), file)
          : await (await import("../../engine/ingest/formats/load.js")).loadTranscripts(file, {
              format: opts.format,
              agent: opts.agent,
            });
      const mem = await open(opts);
      try {
        const total = transcripts.reduce((n, t) => n + t.sessions.length, 0);
        const bar = progress("ingest", true);
        let done = 0;
        const started = performance.now();
        const reports = await mem.ingestAll(transcripts, {
          stopAfterUnreachable,
          onProgress: (p) => bar.update(++done, total, `${p.agent} ${p.sessionId} ${p.outcome}`),
        });
        bar.stop();
        const elapsedMs = performance.now() - started;
        const failures = reports.flatMap((r) => r.failures);
        const stopped = reports.find((r) => r.stopped)?.stopped;
        const problem = failures.length || stopped ? failure(failures, stopped, total) : null;
        if (opts.json) {
          printJson({ reports, elapsedMs });
          if (problem) throw problem;
          return;
        }
        for (const r of reports) {
          const stats = await mem.inspect(r.agent);
          print(
            `${r.agent}: ${r.sessions} sessions (${r.ingested} new, ${r.resumed} resumed, ${r.skipped} already stored, ${r.failed} failed), ` +
              `${r.turns} turns, ${stats.memories.active ?? 0} active memories (${stats.memories.superseded ?? 0} superseded)`,
          );
          if (r.failed)
            note(
              `  ${r.failed} sessions failed to consolidate: see \`memlane inspect --agent ${r.agent}\` and \`memlane retry\``,
            );
        }
        print(
          `done in ${(elapsedMs / 1000).toFixed(1)} s with strategy ${mem.strategy.name} and ${mem.cognition.name} cognition`,
        );
        // Failed sessions are stored and retryable, but the run did not succeed: say so in the exit code.
        if (problem) throw problem;
      } finally {
        await mem.close();
      }
    });
}

/**
 * The error a run with failed sessions ends with: model unreachable or timed out (exit 7) wins
 * over answers that failed their schema (8), which wins over anything else.
 */
export function failure(
  failures: { code: string }[],
  stopped: string | undefined,
  total: number,
  what = "sessions",
): MemlaneError {
  const codes = new Set(failures.map((f) => f.code));
  const code: ErrorCode = stopped
    ? "MODEL_UNAVAILABLE"
    : ((
        ["MODEL_UNAVAILABLE", "MODEL_TIMEOUT", "SCHEMA_MISMATCH", "CONFLICT", "STORE_UNAVAILABLE"] as const
      ).find((c) => codes.has(c)) ?? "SCHEMA_MISMATCH");
  const said = `${failures.length} of ${total} ${what} failed${stopped ? `, and the run stopped: ${stopped}` : ""}`;
  return new MemlaneError(code, `${said}; they are stored and wait for \`memlane retry\``, {
    failed: failures.length,
    stopped: stopped ?? null,
  });
}
