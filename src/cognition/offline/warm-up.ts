/**
 * What the offline toolbox loads lazily, loaded at once: the part-of-speech tagger, WordNet, the
 * spelling dictionaries and the trained models in data/models/. Each loads synchronously on first
 * use (the tagger about 0.2 s, WordNet about 0.1 s, the dictionaries about 0.4 s), which is right for a script that may never parse, and wrong for a
 * server, where the first request that needs one would hold every other caller while it loads.
 * `memlane serve` calls this before it listens.
 */
import { shippedLinkModel } from "./learned/link-model.js";
import { shippedPairModel } from "./learned/pair-model.js";
import { shippedStandingModel } from "./learned/standing-model.js";
import { verbAspect } from "./lexicon.js";
import { nlp } from "./nlp.js";
import { wordMeant } from "./typed-slips.js";

/** Loads the tagger, WordNet, the dictionaries and the shipped models now (each once per process). */
export function warmOffline(): void {
  // A parse with tags, not an empty one: the tagger builds parts of its lexicon on first tagging.
  nlp("Sam moved to Bristol last May and adopted a beagle.").terms().json();
  verbAspect("move");
  // A slip read once loads both spelling dictionaries.
  wordMeant("befor");
  shippedPairModel();
  shippedStandingModel();
  shippedLinkModel();
}
