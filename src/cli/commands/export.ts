/**
 * `memlane export` (a scope, or one person's part of it, as JSON lines) and `memlane import`
 * (such a file read into this store, ids kept). Progress goes to stderr so stdout can be the file.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, renameSync, rmSync, type WriteStream } from "node:fs";
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import type { ExportCounts } from "../../engine/export/export-format.js";
import { io } from "../io.js";
import { type GlobalOptions, open } from "../options.js";
import { note, printJson } from "../output.js";

const total = (c: ExportCounts) => Object.values(c).reduce((a, b) => a + b, 0);
const summary = (c: ExportCounts) =>
  `${c.sessions} sessions, ${c.turns} turns, ${c.memories} memories, ${c.edges} edges, ${c.operations} operations, ${c.embeddings} vectors`;

/** A progress line on stderr at most every two seconds: long runs show they are alive. */
function throttled(title: string): (counts: ExportCounts) => void {
  let last = Date.now();
  return (counts) => {
    if (Date.now() - last < 2000) return;
    last = Date.now();
    note(`${title}: ${total(counts)} rows so far`);
  };
}

export function registerExport(program: Command): void {
  program
    .command("export")
    .description(
      "write memory as JSON lines (docs/formats.md): sessions, turns, every memory version, edges, operations",
    )
    .option("--agent <agent>", "one agent's scope (default: every agent of the tenant)")
    .option("--about <person>", "only this person's data: their sessions and words, memories about them")
    .option("--embeddings", "include the stored vectors (default: left out, the embedder recomputes them)")
    .option("--out <file>", "write to this file (default: stdout)")
    .addHelpText(
      "after",
      "\nExamples:\n  memlane export --agent ava --out ava.jsonl\n  memlane export --agent ava --about sam > sam.jsonl",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { agent?: string; about?: string; embeddings?: boolean; out?: string }
      >();
      const mem = await open(opts, { existing: true });
      // Written beside the file and renamed when whole: a failed export leaves no file that looks
      // done. The file is opened at the first line, once a person no one knows has been refused.
      const partial = opts.out ? `${opts.out}.partial` : undefined;
      let file: WriteStream | undefined;
      try {
        let counts: ExportCounts | undefined;
        const tick = throttled("export");
        const lines = mem.export(
          { agent: opts.agent, about: opts.about, embeddings: opts.embeddings ?? false },
          {
            onProgress: (c) => {
              counts = c;
              tick(c);
            },
          },
        );
        for await (const line of lines) {
          if (partial && !file) {
            file = createWriteStream(partial);
            await once(file, "open");
          }
          const out = file ?? io().stdout;
          if (!out.write(line)) await once(out, "drain");
        }
        if (file && partial && opts.out) {
          const whole = file;
          await new Promise<void>((resolve, reject) =>
            whole.end((e?: Error | null) => (e ? reject(e) : resolve())),
          );
          renameSync(partial, opts.out);
        }
        if (counts) note(`exported ${summary(counts)}`);
      } catch (error) {
        if (file && partial) {
          file.destroy();
          rmSync(partial, { force: true });
        }
        throw error;
      } finally {
        await mem.close();
      }
    });

  program
    .command("import")
    .description("read an export into this store, ids kept; a bad line stops it with its number")
    .argument("<file>", "a file written by `memlane export` (- for stdin: read once, so not checked first)")
    .option("--check", "read and check every line, write nothing")
    .option("--batch-rows <n>", "lines written per transaction (default 500)")
    .addHelpText(
      "after",
      "\nA file is read twice: checked whole first, so a bad line writes nothing; then written a batch\nat a time. Sessions this store records as forgotten are skipped, never written again.\n\nExample:\n  memlane --db postgres://localhost/memlane import ava.jsonl",
    )
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { check?: boolean; batchRows?: string }>();
      const batchRows = opts.batchRows === undefined ? undefined : Number(opts.batchRows);
      if (batchRows !== undefined && !(Number.isInteger(batchRows) && batchRows > 0))
        throw new InvalidInputError(`--batch-rows must be a whole number above 0, not "${opts.batchRows}"`);
      const source = () => (file === "-" ? io().stdin : createReadStream(file));
      const mem = await open(opts);
      try {
        const tick = throttled(opts.check ? "check" : "import");
        const onProgress = (r: { written: ExportCounts }) => tick(r.written);
        // Checked whole before the first write: a bad line anywhere leaves the store untouched.
        if (file !== "-" && !opts.check) await mem.import({ source: source(), check: true }, { onProgress });
        const report = await mem.import(
          { source: source(), ...(opts.check ? { check: true } : {}), ...(batchRows ? { batchRows } : {}) },
          { onProgress },
        );
        if (opts.json) return printJson(report);
        note(`${opts.check ? "checked, would write" : "imported"} ${summary(report.written)}`);
        if (total(report.skipped) > 0) note(`skipped as forgotten: ${summary(report.skipped)}`);
      } finally {
        await mem.close();
      }
    });
}
