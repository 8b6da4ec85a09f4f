/**
 * `memlane demo`: the offline tour. Ingests the bundled conversation (we wrote it; facts change
 * between sessions), prints each session's new and superseded memories, asks a few questions
 * in a new session, and writes an HTML report. The engine loads when the demo runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { formatDay } from "../../core/time.js";
import type { Memory } from "../../core/types.js";
import { type DemoQuestionView, type DemoSessionView, demoReport } from "../demo-report.js";
import { configFrom, type GlobalOptions } from "../options.js";
import { color, print, printJson, shown } from "../output.js";

const DEMO_FILE = new URL("../../../data/demo-conversation.json", import.meta.url);

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "offline tour: ingest a bundled conversation whose facts change, show memory over time, write an HTML report",
    )
    .option("--out <file>", "where to write the HTML report", "memlane-demo.html")
    .option("--keep", "keep the demo database (printed at the end) instead of deleting it")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { out: string; keep?: boolean }>();
      // EMMA's demo has its own conversation (mixed sessions, three partners).
      if (configFrom(opts).strategy === "emma") return (await import("./demo-emma.js")).emmaDemo(opts);
      const started = performance.now();
      const [{ validateTranscript }, { openMemlane }, { memochatDemo }] = await Promise.all([
        import("../../engine/ingest/formats/transcript.js"),
        import("../../engine/open-memlane.js"),
        import("./demo-memochat.js"),
      ]);
      const raw = JSON.parse(readFileSync(DEMO_FILE, "utf8")) as {
        questions: { ask: string; about: string }[];
        /** Questions about an earlier state: recall brings back superseded versions, marked. */
        history?: { ask: string; about: string }[];
      };
      const transcript = validateTranscript(raw, "demo conversation");
      const dir = opts.db ? null : mkdtempSync(join(tmpdir(), "memlane-demo-"));
      const db = opts.db ?? join(dir!, "demo.db");
      const mem = await openMemlane({ ...configFrom({ ...opts, db }) });
      const agent = transcript.agent;
      const sessions: DemoSessionView[] = [];
      const questions: DemoQuestionView[] = [];
      const history: DemoQuestionView[] = [];
      const memo = memochatDemo(mem.strategy.name);
      try {
        if (!opts.json)
          print(
            color.bold(
              `memlane demo — strategy ${mem.strategy.name}, ${mem.cognition.name} cognition, embedder ${mem.embedder.name}\n`,
            ),
          );
        for (const session of transcript.sessions) {
          await mem.ingest({ agent, sessions: [session] });
          const all = await mem.memories(agent, { status: "any" });
          // Retired rows (a DELETE's closing sentence) are shown with the memory they closed.
          const added = all.filter((m) => m.sessionId === session.id && !m.attributes.retired);
          const superseded: DemoSessionView["superseded"] = [];
          for (const old of all.filter(
            (m) => m.status === "superseded" && m.invalidAt === session.at && !m.attributes.retired,
          )) {
            const history = await mem.history(agent, old.id);
            superseded.push({ old, by: history.replacedBy });
          }
          const turns = await mem.turns(agent, { sessionId: session.id });
          sessions.push({ id: session.id, at: session.at, turns, added, superseded });
          if (opts.json) continue;
          print(
            color.bold(
              `${session.id} · ${formatDay(session.at)} · ${turns.length} turns with ${session.partners.join(", ")}`,
            ),
          );
          if (memo) for (const line of memo.added(added)) print(line);
          for (const m of memo ? [] : added)
            print(
              color.green(
                `  + [${m.about}]${typeof m.attributes.type === "string" ? ` (${m.attributes.type})` : ""} ${shown(m.text)}`,
              ),
            );
          for (const s of superseded) print(color.yellow(shown(`  − ${s.old.text}${supersededBy(s.by)}`)));
          if (added.length === 0 && superseded.length === 0) print(color.dim("  (no change)"));
        }
        const last = transcript.sessions.at(-1)!;
        const followUp = await mem.session({
          agent,
          partner: last.partners[0]!,
          at: new Date(Date.parse(last.at) + 7 * 86_400_000).toISOString(),
          id: "demo-questions",
        });
        if (!opts.json) print(color.bold(`\nquestions in a new session (${formatDay(followUp.session.at)})`));
        const ask = async (q: { ask: string; about: string }, into: DemoQuestionView[]) => {
          await followUp.turn(q.about, q.ask);
          const { text, recall } = await followUp.reply();
          const view: DemoQuestionView = {
            question: q.ask,
            reply: text,
            temporal: recall.temporal,
            hits: recall.hits.slice(0, 3).map((h) => ({
              text: h.text,
              score: h.score,
              observedAt: h.observedAt,
              status: h.status,
              invalidAt: h.status === "past" ? (h.memory?.invalidAt ?? undefined) : undefined,
            })),
          };
          into.push(view);
          if (opts.json) return;
          print(`${color.bold(q.about)}: ${shown(q.ask)}`);
          print(`${color.green(agent)}: ${shown(text).replace(/\n/g, "\n     ")}`);
          if (memo) print(memo.choice(recall));
          // A question about history shows what recall found, each version marked.
          if (recall.temporal)
            for (const h of view.hits) print(color.dim(`     ↳ ${hitMark(h)} ${shown(h.text)}`));
        };
        for (const q of raw.questions) await ask(q, questions);
        if (raw.history?.length && !opts.json) print(color.bold("\nquestions about the past"));
        for (const q of raw.history ?? []) await ask(q, history);
        await (await followUp.close()).done;
        const elapsedMs = performance.now() - started;
        const out = resolve(opts.out);
        writeFileSync(
          out,
          demoReport("memlane demo", mem.strategy.name, sessions, questions, elapsedMs, history),
        );
        const counts = await mem.inspect(agent);
        if (opts.json)
          return printJson({
            sessions,
            questions,
            history,
            report: out,
            elapsedMs,
            memories: counts.memories,
          });
        print(
          `\nmemories: ${counts.memories.active ?? 0} active, ${counts.memories.superseded ?? 0} superseded · ${counts.edges} edges · ${Object.values(counts.operations).reduce((a, b) => a + b, 0)} operations`,
        );
        print(`report: ${out}`);
        if (opts.keep || opts.db)
          print(`database: ${db}  (try: memlane inspect --db ${db} --agent ${agent} --memories --all)`);
        print(color.dim(`demo finished in ${(elapsedMs / 1000).toFixed(1)} s`));
      } finally {
        await mem.close();
        if (dir && !opts.keep) rmSync(dir, { recursive: true, force: true });
      }
    });
}

/** "[past 2 March 2024 – 20 April 2024]" or "[current since 20 April 2024]". */
function hitMark(h: DemoQuestionView["hits"][number]): string {
  if (h.status === "past")
    return color.yellow(
      `[past ${formatDay(h.observedAt)}${h.invalidAt ? ` – ${formatDay(h.invalidAt)}` : ""}]`,
    );
  return color.green(`[current since ${formatDay(h.observedAt)}]`);
}

/** How a superseded memory's successor reads in the demo: replaced, fused, or closed (DELETE). */
function supersededBy(by: Memory[]): string {
  if (by.length === 0) return "";
  const retired = by.filter((b) => b.attributes.retired);
  if (retired.length)
    return `  ✕ closed by “${retired.map((b) => b.text).join("; ")}” (DELETE: both retired)`;
  return `  →  ${by.map((b) => b.text).join("; ")}`;
}
