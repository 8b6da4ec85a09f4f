/**
 * The k best-scored documents of a stream, kept in a bounded min-heap: O(n log k) where sorting
 * everything costs O(n log n) — it matters when a common word matches most of a 100K scope. Of
 * equal scores the lower document number wins, whatever order they came in, so a ranker may visit
 * documents in any order (BM25 visits them term by term) and still give the same answer.
 */
/** A document number and its score. */
export interface Scored {
  doc: number;
  score: number;
}

export class TopK {
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.docs = new Int32Array(Math.max(0, k));
    this.scores = new Float64Array(Math.max(0, k));
  }

  /** The score a newcomer must reach once the heap is full (and beat, unless its number is lower). */
  get floor(): number {
    return this.size < this.k ? Number.NEGATIVE_INFINITY : this.scores[0]!;
  }

  push(doc: number, score: number): void {
    const { docs, scores } = this;
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(score, doc, scores[parent]!, docs[parent]!)) break;
        scores[at] = scores[parent]!;
        docs[at] = docs[parent]!;
        at = parent;
      }
      scores[at] = score;
      docs[at] = doc;
    } else if (this.k > 0 && worse(scores[0]!, docs[0]!, score, doc)) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= this.size) break;
        const right = left + 1;
        const child =
          right < this.size && worse(scores[right]!, docs[right]!, scores[left]!, docs[left]!) ? right : left;
        if (!worse(scores[child]!, docs[child]!, score, doc)) break;
        scores[at] = scores[child]!;
        docs[at] = docs[child]!;
        at = child;
      }
      scores[at] = score;
      docs[at] = doc;
    }
  }

  /** Best first; equal scores in document order. */
  sorted(): Scored[] {
    const out: Scored[] = [];
    for (let i = 0; i < this.size; i++) out.push({ doc: this.docs[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /** The k best of a map of scores, dropping any below `min`. */
  static of(scores: Map<number, number>, k: number, min = Number.NEGATIVE_INFINITY): Scored[] {
    const top = new TopK(k);
    for (const [doc, score] of scores) if (score >= min) top.push(doc, score);
    return top.sorted();
  }
}

/** Whether (score a, doc a) ranks below (score b, doc b): a lower score, or the same score and a higher number. */
function worse(a: number, docA: number, b: number, docB: number): boolean {
  return a < b || (a === b && docA > docB);
}
