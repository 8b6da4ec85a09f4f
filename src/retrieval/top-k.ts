/**
 * The k best-scored documents of a stream, kept in a bounded min-heap: O(n log k) where sorting
 * everything costs O(n log n) — it matters when a common word matches most of a 100K scope.
 */
import type { Scored } from "./fusion.js";

export class TopK {
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.docs = new Int32Array(Math.max(0, k));
    this.scores = new Float64Array(Math.max(0, k));
  }

  /** The score a newcomer must beat once the heap is full. */
  get floor(): number {
    return this.size < this.k ? Number.NEGATIVE_INFINITY : this.scores[0]!;
  }

  push(doc: number, score: number): void {
    const { docs, scores } = this;
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (scores[parent]! <= score) break;
        scores[at] = scores[parent]!;
        docs[at] = docs[parent]!;
        at = parent;
      }
      scores[at] = score;
      docs[at] = doc;
    } else if (this.k > 0 && score > scores[0]!) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= this.size) break;
        const right = left + 1;
        const child = right < this.size && scores[right]! < scores[left]! ? right : left;
        if (scores[child]! >= score) break;
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
