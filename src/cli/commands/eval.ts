/** `memlane eval …`: the lab's commands. */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { InvalidInputError, NotFoundError } from "../../core/errors.js";
import { resolveChat, resolveCognition, resolveEmbedder } from "../../engine/config.js";
import { parseCarecallJsonl } from "../../eval/carecall/dataset.js";
import { carecallMarkdown, evaluateCarecall } from "../../eval/carecall/evaluate.js";
import { evaluateLinks, linksMarkdown, parseLinksJsonl } from "../../eval/links/evaluate.js";
import { CachedEmbedder } from "../../models/cached-embedder.js";
import { configFrom, type GlobalOptions } from "../options.js";
import { note, print, printJson } from "../output.js";

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") throw new NotFoundError(`No file at ${path}`);
    throw new InvalidInputError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

export function registerEval(program: Command): void {
  const evalCmd = program.command("eval").description("measure memory mechanisms on data sets (the lab)");
  evalCmd
    .command("carecall <file>")
    .description(
      "pairwise PASS/REPLACE/APPEND/DELETE accuracy and set F1 (CareCall Table 3), with the accumulate baseline and a no-FUSION ablation",
    )
    .option("--engine <engine>", "offline | llm (llm needs a chat model)", "offline")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { engine: string }>();
      if (opts.engine !== "offline" && opts.engine !== "llm")
        throw new InvalidInputError(`--engine must be offline or llm, not "${opts.engine}"`);
      const examples = parseCarecallJsonl(await readText(file), file);
      const config = configFrom({ ...opts, cognition: opts.engine });
      const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
      const cognition = resolveCognition(config, resolveChat(config.chat), embedder);
      note(`scoring ${examples.length} examples with ${cognition.name} cognition…`);
      const withFusion = await evaluateCarecall(examples, cognition, { fusion: true });
      const withoutFusion = await evaluateCarecall(examples, cognition, { fusion: false });
      if (opts.json) return printJson({ reports: [withFusion, withoutFusion] });
      print(carecallMarkdown([withFusion, withoutFusion]));
    });

  evalCmd
    .command("links <file>")
    .description(
      "agreement of relation-aware linking (Theanine) with labelled pairs: exact, linked-vs-None, confusion matrix",
    )
    .option("--engine <engine>", "offline | llm (llm needs a chat model)", "offline")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { engine: string }>();
      const examples = parseLinksJsonl(await readText(file), file);
      const cognition = cognitionFor(opts);
      const report = await evaluateLinks(examples, cognition);
      if (opts.json) return printJson(report);
      print(linksMarkdown(report));
    });
}

/** The cognition engine an eval command asks for (offline, or llm with a configured model). */
function cognitionFor(opts: GlobalOptions & { engine: string }) {
  if (opts.engine !== "offline" && opts.engine !== "llm")
    throw new InvalidInputError(`--engine must be offline or llm, not "${opts.engine}"`);
  const config = configFrom({ ...opts, cognition: opts.engine });
  return resolveCognition(
    config,
    resolveChat(config.chat),
    new CachedEmbedder(resolveEmbedder(config.embedder)),
  );
}
