/**
 * Sentence-level set F1 between a predicted and a gold memory (CareCall's Table 3). Sentences are
 * matched one to one; by default a match is equal text after normalising case, spacing and end
 * punctuation. A looser `match` can accept paraphrases (e.g. fused sentences).
 */
export function normalizeSentence(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.!?]+$/, "")
    .trim();
}

export interface SetScore {
  precision: number;
  recall: number;
  f1: number;
  matched: number;
}

export function setF1(
  predicted: string[],
  gold: string[],
  match: (a: string, b: string) => boolean = (a, b) => normalizeSentence(a) === normalizeSentence(b),
): SetScore {
  if (predicted.length === 0 && gold.length === 0) return { precision: 1, recall: 1, f1: 1, matched: 0 };
  const used = new Set<number>();
  let matched = 0;
  for (const p of predicted) {
    const g = gold.findIndex((candidate, i) => !used.has(i) && match(p, candidate));
    if (g >= 0) {
      used.add(g);
      matched++;
    }
  }
  const precision = predicted.length ? matched / predicted.length : 0;
  const recall = gold.length ? matched / gold.length : 0;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, matched };
}
