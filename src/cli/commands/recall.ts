/** `memlane recall`: what an agent remembers for a question, with each signal's score. */
import type { Command } from "commander";
import { recallText } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { print, printJson } from "../output.js";

export function registerRecall(program: Command): void {
  program
    .command("recall <query...>")
    .description("what an agent remembers for a question, with each signal's score")
    .requiredOption("--agent <agent>", "whose memory to search")
    .option(
      "--about <partner>",
      "the partner the recall is for: what they may hear (their private memories too)",
    )
    .option(
      "--scope <scope>",
      "partner (default; needs --about): what that partner may hear; agent: the agent's whole memory, private memories excepted (emma's default)",
    )
    .option(
      "-k, --k <n>",
      "how many hits (default: the strategy's own, 5 for carecall, 3 for theanine; 10 turns)",
    )
    .option(
      "--units <units>",
      "memories (the strategy's, default) or turns (every session's raw turns)",
      "memories",
    )
    .option(
      "--turns <n>",
      "with memories: also show up to n raw turns that no shown memory was made from (default 0)",
    )
    .option(
      "--now <time>",
      "the conversation's present, for \"last month\" in the query (default: the newest memory's time)",
    )
    .action(async (words: string[], _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & {
          agent: string;
          about?: string;
          scope?: string;
          k?: string;
          units: string;
          turns?: string;
          now?: string;
        }
      >();
      // The library's own schema checks the options before the database is opened.
      const { parseInput, recallInputSchema } = await import("../../engine/api.js");
      const input = parseInput(
        recallInputSchema,
        {
          agent: opts.agent,
          query: words.join(" "),
          about: opts.about,
          scope: opts.scope,
          k: opts.k === undefined ? undefined : Number(opts.k),
          units: opts.units,
          turns: opts.turns === undefined ? undefined : Number(opts.turns),
          now: opts.now,
        },
        "recall options",
      );
      const mem = await open(opts, { existing: true });
      try {
        const recall = await mem.recall(input);
        if (opts.json)
          return printJson({ ...recall, hits: recall.hits.map(({ memory: _m, turn: _t, ...hit }) => hit) });
        print(recallText(recall));
      } finally {
        await mem.close();
      }
    });
}
