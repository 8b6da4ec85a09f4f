/**
 * A REPL: you speak as the partner, the agent answers from memory. Each reply is followed by a
 * memory panel showing what was recalled. With no chat model configured the agent answers
 * offline, from memory only. Commands: /memory, /close (consolidate and start over), /quit (or
 * Ctrl-C), /help; any other line starting with "/" is refused, not stored.
 */
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { isMemlaneError } from "../../core/errors.js";
import { formatDay } from "../../core/time.js";
import { shown } from "../format.js";
import { io, untilStopped } from "../io.js";
import { type GlobalOptions, open } from "../options.js";
import { color, note, print } from "../output.js";
import { failure } from "./ingest.js";

/** The chat's own commands; any other line starting with "/" is refused, not stored. */
const CHAT_COMMANDS = new Set(["/memory", "/close", "/quit", "/exit", "/help"]);

const CHAT_HELP = [
  "  /memory  list what the agent remembers",
  "  /close   end this session (it is consolidated) and start a new one",
  "  /quit    end the chat (also /exit or Ctrl-C); the session is closed first",
  "  /help    this list",
].join("\n");

export function registerChat(program: Command): void {
  program
    .command("chat")
    .description("talk with an agent as a partner; shows a live memory panel (/memory, /close, /quit, /help)")
    .requiredOption("--agent <agent>", "the agent you talk to")
    .requiredOption("--partner <partner>", "who you are")
    .option("--at <time>", "conversation time of the session (default now)")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent: string; partner: string; at?: string }>();
      const mem = await open(opts);
      const { stdin, stdout } = io();
      const rl = createInterface({ input: stdin, terminal: false });
      let session = await mem.session({ agent: opts.agent, partner: opts.partner, at: opts.at });
      note(
        `session ${session.id} with ${mem.cognition.name} cognition and strategy ${mem.strategy.name}; /quit to end`,
      );
      const say = async (line: string) => {
        await session.turn(opts.partner, line);
        const { text, recall } = await session.reply();
        print(`${color.green(`${opts.agent}>`)} ${shown(text)}`);
        const panel = recall.hits
          .slice(0, 5)
          .map((h) => `  │ ${h.score.toFixed(3)} ${formatDay(h.observedAt)} ${shown(h.text)}`);
        print(
          color.dim(
            `  ┌ memory (${recall.strategy})\n${panel.length ? panel.join("\n") : "  │ nothing recalled"}\n  └`,
          ),
        );
      };
      // Every session the chat opened is closed, an empty one too (it ends with nothing to
      // consolidate), so none is left open after /close, /quit or Ctrl-C.
      const finish = async () => {
        const { job, done } = await session.close();
        if (!job) return;
        note("consolidating this session…");
        note(`consolidation ${(await done)?.state}`);
      };
      // Ctrl-C (or SIGTERM) ends the talk as /quit does: the loop below stops and the session is
      // closed, not stranded open.
      let endChat = () => {};
      const ended = new Promise<void>((resolve) => {
        endChat = resolve;
      });
      void untilStopped(ended).then(() => rl.close());
      const talked = [session.id];
      try {
        const prompt = () => stdout.write(color.bold(`${opts.partner}> `));
        prompt();
        // Iterating lines (not rl.question) keeps piped input that arrives all at once.
        for await (const raw of rl) {
          const line = raw.trim();
          // An empty line is nothing said: ask again (it used to end the talk with an error).
          if (!line) {
            prompt();
            continue;
          }
          if (line === "/quit" || line === "/exit") break;
          try {
            if (line === "/help") print(CHAT_HELP);
            else if (line.startsWith("/") && !CHAT_COMMANDS.has(line.split(/\s/)[0]!))
              // A command mistyped is not something said: nothing is stored.
              note(`unknown command ${shown(line.split(/\s/)[0]!)}: ${[...CHAT_COMMANDS].join(", ")}`);
            else if (line === "/memory") {
              const memories = await mem.memories(opts.agent);
              for (const m of memories)
                print(`  ${color.cyan(formatDay(m.observedAt))} [${shown(m.about)}] ${shown(m.text)}`);
              if (memories.length === 0) print(color.dim("  (no memories yet)"));
            } else if (line === "/close") {
              await finish();
              session = await mem.session({ agent: opts.agent, partner: opts.partner });
              talked.push(session.id);
              note(`new session ${session.id}`);
            } else await say(line);
          } catch (error) {
            // One bad line (too long, refused) or a model that failed once does not end the talk:
            // the turn was stored or refused whole, and the failure is on record for `retry`.
            if (!isMemlaneError(error)) throw error;
            note(`${error.code}: ${shown(error.message)} (the chat goes on; /quit to end)`);
          }
          prompt();
        }
        await finish();
        // Per-turn work or a consolidation that failed is stored and waits for `memlane retry`:
        // the chat ends with its code, not 0.
        const failed = (await mem.failures(opts.agent))
          .filter((o) => talked.includes(o.sessionId ?? ""))
          .map((o) => ({ code: (o.error ?? "").split(":")[0]! }));
        if (failed.length) throw failure(failed, undefined, failed.length, "turns' and sessions' steps");
      } finally {
        endChat();
        rl.close();
        await mem.close();
      }
    });
}
