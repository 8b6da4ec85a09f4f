/**
 * Features of an (older memory, newer memory) pair for the learned Theanine relation linker:
 * both gist embeddings and how they meet, the frames of both (a wish or plan in the older one,
 * an ending or a beginning in the newer one, polarity, tense), lexical relations from WordNet,
 * the time between them, and the hand-written rules' answers (written on other data).
 */
import { PAIR_LABELS_WITH_FUSION, type PairLabelWithFusion } from "../../../core/memory-update.js";
import { RELATIONS_OR_NONE, type RelationOrNone } from "../../../core/relations.js";
import { cosine } from "../../../core/vector.js";
import { coverage, FRAME_ASPECTS, type Frame } from "../frame.js";
import { lexicalRelations } from "../lexicon.js";
import { oneHot, type PairSide } from "./pair-features.js";

/** Bumped whenever the features change; a model trained on other features is refused. */
export const LINK_FEATURES_VERSION = 2;

function frameFeatures(f: Frame): number[] {
  return [
    +f.negated,
    +f.plan,
    ...oneHot(f.tense, ["past", "present", "future"]),
    ...FRAME_ASPECTS.map((a) => +f.aspects.has(a)),
    +(f.numbers.length > 0),
    Math.log1p(f.terms.size),
  ];
}

export function linkFeatures(
  older: PairSide,
  newer: PairSide,
  days: number,
  rules: { operator: PairLabelWithFusion; relation: RelationOrNone },
): number[] {
  const o = older.frame;
  const n = newer.frame;
  const shared = [...o.terms].filter((t) => n.terms.has(t)).length;
  const lex = lexicalRelations(o.terms, n.terms);
  const scalars = [
    cosine(older.vector, newer.vector),
    coverage(o.terms, n.terms),
    coverage(n.terms, o.terms),
    Math.min(shared, 5),
    lex.antonyms,
    lex.synonyms,
    Math.min(lex.related, 5),
    ...frameFeatures(o),
    ...frameFeatures(n),
    Math.log1p(Math.max(0, days)),
    +(days <= 7),
    +(days <= 60),
    ...oneHot(rules.operator, PAIR_LABELS_WITH_FUSION),
    ...oneHot(rules.relation, RELATIONS_OR_NONE),
  ];
  const vo = older.vector;
  const vn = newer.vector;
  return [
    ...scalars,
    ...vo,
    ...vn,
    ...Array.from(vn, (x, i) => x * vo[i]!),
    ...Array.from(vn, (x, i) => Math.abs(x - vo[i]!)),
  ];
}
