/**
 * The offline CareCall pair operator over many pairs at once: the hand-written rules
 * (`classifyPair`), then the learned model on the pairs its policy says it decides. Carecall's
 * classify step and CREEM's offline typing both decide pairs this way, so the two strategies read
 * a change alike.
 */
import { cosine } from "../../../core/vector.js";
import type { PairDecision } from "../../inputs.js";
import type { OfflineKit } from "../../step.js";
import { canHold, classifyPair, type RuleDecision } from "../pair-operator.js";
import { chooseModel } from "./choose.js";
import {
  decidePair,
  modelDecides,
  OPEN_BUCKET_POLICY,
  pairRows,
  pairSides,
  shippedPairModel,
} from "./pair-model.js";

/** One decision per pair, in order; `about` is the person's display name. */
export async function decidePairsOffline(
  pairs: readonly { memory: string; summary: string }[],
  about: string,
  kit: OfflineKit,
  fusion = true,
): Promise<(PairDecision | RuleDecision)[]> {
  const texts = [...new Set(pairs.flatMap((p) => [p.memory, p.summary]))];
  const vectors = new Map((await kit.embedder.embed(texts)).map((v, n) => [texts[n]!, v]));
  const rules = pairs.map((p) =>
    classifyPair(
      p.memory,
      p.summary,
      about,
      { cosine: cosine(vectors.get(p.memory)!, vectors.get(p.summary)!) },
      fusion,
    ),
  );
  const model = chooseModel(kit.models?.pairOperator, shippedPairModel, kit.embedder);
  const scope = (model?.policy ?? OPEN_BUCKET_POLICY).scope;
  const open = rules.flatMap((r, k) => (modelDecides(scope, r.reason) ? [k] : []));
  if (!model || open.length === 0) return rules;
  // The model's policy says which pairs it decides (`modelDecides`); models saved without a
  // policy decide only what the rules left open ("related but compatible"), as the first
  // trained models did.
  const sides = await pairSides(texts, about, kit.embedder);
  const rows = pairRows(
    pairs.map((p) => ({ memory: sides.get(p.memory)!, summary: sides.get(p.summary)! })),
    about,
  );
  const decisions: (PairDecision | RuleDecision)[] = [...rules];
  for (const k of open) {
    const memory = sides.get(pairs[k]!.memory)!;
    const summary = sides.get(pairs[k]!.summary)!;
    // Closeness of the gists (the partner's name left out): naming them alone makes two facts alike.
    const pass = canHold(memory, summary, cosine(memory.vector, summary.vector));
    decisions[k] = decidePair(model, rows[k]!, fusion, pass);
  }
  return decisions;
}
