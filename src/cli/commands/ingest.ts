import type { Command } from "commander";
import { loadTranscripts, type TranscriptFormat } from "../../engine/formats/load.js";
import { type GlobalOptions, open } from "../options.js";
import { note, print, printJson } from "../output.js";
import { progress } from "../progress.js";

export function registerIngest(program: Command): void {
  program
    .command("ingest <file>")
    .description("store and consolidate a transcript file (memlane or LoCoMo JSON); safe to re-run")
    .option("--format <format>", "memlane | locomo | auto", "auto")
    .option("--agent <name>", "for LoCoMo: which speaker is the agent (default speaker_a)")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { format: TranscriptFormat; agent?: string }>();
      const transcripts = await loadTranscripts(file, { format: opts.format, agent: opts.agent });
      const mem = await open(opts);
      try {
        const total = transcripts.reduce((n, t) => n + t.sessions.length, 0);
        const bar = progress("ingest", true);
        let done = 0;
        const reports = [];
        const started = performance.now();
        for (const t of transcripts) {
          reports.push(
            await mem.ingest(t, {
              onProgress: (p) => bar.update(++done, total, `${p.agent} ${p.sessionId} ${p.outcome}`),
            }),
          );
        }
        bar.stop();
        const elapsedMs = performance.now() - started;
        if (opts.json) return printJson({ reports, elapsedMs });
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
      } finally {
        await mem.close();
      }
    });
}
