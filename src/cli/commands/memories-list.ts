/**
 * `memlane memories list`: a page of an agent's memories, filtered as the library's
 * `listMemories` filters them (status, subject, kind, session, meta, dates), with the command that
 * reads the next page.
 */
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import type { MetaFilter } from "../../core/types.js";
import type { ListMemoriesInput } from "../../engine/list/list-inputs.js";
import { memoryLine } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { note, print, printJson } from "../output.js";

interface ListOptions extends GlobalOptions {
  agent: string;
  status?: string;
  about?: string;
  kind?: string;
  session?: string;
  meta: string[];
  observedAfter?: string;
  observedBefore?: string;
  validAfter?: string;
  validBefore?: string;
  limit?: string;
  cursor?: string;
  newest?: boolean;
}

/** `--meta topic=work` (or `topic=work,home` for either), repeatable, as a meta filter. */
export function metaFilterOf(pairs: string[]): MetaFilter | undefined {
  if (pairs.length === 0) return undefined;
  const meta: MetaFilter = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw new InvalidInputError(`--meta takes field=value (or field=a,b), not "${pair}"`, {
        field: "meta",
      });
    const values = pair.slice(eq + 1).split(",");
    meta[pair.slice(0, eq)] = values.length === 1 ? values[0]! : { in: values };
  }
  return meta;
}

const list = (value: string | undefined) => {
  if (value === undefined) return undefined;
  const parts = value.split(",");
  return parts.length === 1 ? parts[0] : parts;
};

export function registerMemoriesList(memories: Command): void {
  memories
    .command("list")
    .description("a page of an agent's memories, oldest learned first, filtered")
    .requiredOption("--agent <agent>", "whose memories")
    .option("--status <status>", "active (default), superseded, forgotten, any, or several comma-separated")
    .option("--about <subject>", "only memories about this subject (or these, comma-separated)")
    .option("--kind <kind>", "only memories of this kind (or these, comma-separated)")
    .option("--session <id>", "only memories learned in this session")
    .option(
      "--meta <field=value>",
      "only memories whose meta has it (field=a,b: either); repeatable",
      (v, all: string[]) => [...all, v],
      [],
    )
    .option("--observed-after <time>", "learned at or after this time")
    .option("--observed-before <time>", "learned before this time")
    .option("--valid-after <time>", "current at some moment at or after this time")
    .option("--valid-before <time>", "current at some moment at or before this time")
    .option("--limit <n>", "memories in the page (1 to 1000; default 100)")
    .option("--cursor <cursor>", "the page after the one that printed this cursor")
    .option("--newest", "newest first")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ListOptions>();
      const limit = opts.limit === undefined ? undefined : Number(opts.limit);
      const input: ListMemoriesInput = {
        status: opts.status === "any" ? "any" : (list(opts.status) as ListMemoriesInput["status"]),
        about: list(opts.about),
        kind: list(opts.kind),
        sessionId: opts.session,
        meta: metaFilterOf(opts.meta),
        observedAfter: opts.observedAfter,
        observedBefore: opts.observedBefore,
        validAfter: opts.validAfter,
        validBefore: opts.validBefore,
        limit,
        cursor: opts.cursor,
        newest: opts.newest,
      };
      const mem = await open(opts, { existing: true });
      try {
        const page = await mem.listMemories(opts.agent, input);
        if (opts.json) return printJson({ memories: page.items, nextCursor: page.nextCursor });
        for (const m of page.items) print(memoryLine(m));
        if (page.items.length === 0) note("no memories");
        if (page.nextCursor) note(`more: add --cursor ${page.nextCursor}`);
      } finally {
        await mem.close();
      }
    });
}
