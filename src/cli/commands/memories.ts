/**
 * `memlane memories list|update|restore|add`: a page of memories (memories-list.ts) and the
 * caller's corrections from the command line. Each correction
 * prints what changed (or, with --json, the library's answer) and leaves an operation by the
 * caller that `memlane history` shows.
 */
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { memoryLine } from "../format.js";
import { type GlobalOptions, open } from "../options.js";
import { print, printJson } from "../output.js";
import { agentOf } from "./inspect.js";
import { registerMemoriesList } from "./memories-list.js";

/** `--meta '{"k": "v"}'` as an object; anything but a JSON object is refused, naming the field. */
function metaOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidInputError('--meta must be a JSON object, e.g. \'{"source": "crm"}\'', {
      field: "meta",
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new InvalidInputError('--meta must be a JSON object, e.g. \'{"source": "crm"}\'', {
      field: "meta",
    });
  return value as Record<string, unknown>;
}

export function registerMemories(program: Command): void {
  const memories = program
    .command("memories")
    .description(
      "list and correct what an agent remembers: list a page, update a memory, restore a past version, add a fact",
    );
  registerMemoriesList(memories);

  memories
    .command("update <memory-id> <text>")
    .description("supersede an active memory with this corrected text; the old version stays as its past")
    .option("--agent <agent>", "whose memory (found automatically if omitted)")
    .option("--meta <json>", "a JSON object kept with the new version")
    .action(async (id: string, text: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string; meta?: string }>();
      const meta = metaOf(opts.meta);
      const mem = await open(opts, { existing: true });
      try {
        const result = await mem.update(await agentOf(mem, id, opts.agent), id, text, meta ? { meta } : {});
        if (opts.json) return printJson(result);
        print(`updated: ${memoryLine(result.memory)}`);
        print(`  was:   ${memoryLine(result.superseded)}`);
      } finally {
        await mem.close();
      }
    });

  memories
    .command("restore <memory-id>")
    .description("make a superseded memory current again; what replaced it becomes past")
    .option("--agent <agent>", "whose memory (found automatically if omitted)")
    .action(async (id: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string }>();
      const mem = await open(opts, { existing: true });
      try {
        const result = await mem.restore(await agentOf(mem, id, opts.agent), id);
        if (opts.json) return printJson(result);
        print(`restored: ${memoryLine(result.memory)}`);
        for (const m of result.retired) print(`  retired: ${memoryLine(m)}`);
      } finally {
        await mem.close();
      }
    });

  memories
    .command("add <text>")
    .description("store one fact as given, with no inference; it replaces nothing")
    .requiredOption("--agent <agent>", "whose memory")
    .requiredOption("--about <subject>", "whom the fact is about: the agent itself or a partner")
    .option("--at <time>", "conversation time it holds from (ISO-8601); default now")
    .option("--meta <json>", "a JSON object kept with the memory")
    .action(async (text: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { agent: string; about: string; at?: string; meta?: string }
      >();
      const meta = metaOf(opts.meta);
      const mem = await open(opts);
      try {
        const result = await mem.add(opts.agent, {
          about: opts.about,
          text,
          ...(opts.at === undefined ? {} : { at: opts.at }),
          ...(meta ? { meta } : {}),
        });
        if (opts.json) return printJson(result);
        print(`added: ${memoryLine(result.memory)}`);
      } finally {
        await mem.close();
      }
    });
}
