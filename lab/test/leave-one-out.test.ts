import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FUSION_WEIGHTS } from "../../src/retrieval/fusion.js";
import { chooseHeldOut, type GridRow, leaveOneOutMarkdown } from "../eval/recall/leave-one-out.js";

/** recall@[1,5,10,25] at two grid points. */
const row = (conv: string, a: number, b: number): GridRow => ({
  conv,
  category: 2,
  recall: [
    [a, a, a, a],
    [b, b, b, b],
  ],
});

describe("leave one conversation out", () => {
  it("chooses each held-out conversation's point on the other conversations alone", () => {
    // Point 1 wins on c1 and c2, point 0 only on c3: c3 must get point 1, the others' choice,
    // even though point 0 is what suits c3 itself.
    const rows = [row("c1", 0, 1), row("c2", 0, 1), row("c3", 1, 0), row("c3", 1, 0), row("c3", 1, 0)];
    const chosen = chooseHeldOut(rows, 2);
    assert.equal(chosen.get("c3"), 1);
    // Held out c1, the others are c2 (point 1) and three c3 rows (point 0): point 0 wins by rows.
    assert.equal(chosen.get("c1"), 0);
    const md = leaveOneOutMarkdown(rows, [FUSION_WEIGHTS, { ...FUSION_WEIGHTS, dated: 0.7 }]);
    assert.match(md, /\| c3 \| 2 temporal \| 3 \| 0\.000 \| 0\.000 \| 0\.000 \| 0\.000 \|/);
  });

  it("chooses on R@10 alone when asked, names the point that ships, and sets the baseline beside", () => {
    // R@[1,5,10,25]: point 1 is better at R@10, point 0 at R@1, R@5 and R@25.
    const rows: GridRow[] = ["c1", "c2"].map((conv) => ({
      conv,
      category: 1,
      recall: [
        [1, 1, 0.5, 1],
        [0, 0, 0.6, 0],
      ],
    }));
    assert.equal(chooseHeldOut(rows, 2).get("c1"), 0, "the blend weighs R@25 and R@5 too");
    assert.equal(chooseHeldOut(rows, 2, "r10").get("c1"), 1);
    const points = [FUSION_WEIGHTS, { ...FUSION_WEIGHTS, question: 0.3 }];
    const md = leaveOneOutMarkdown(rows, points, 0, "r10");
    assert.match(md, /\| \(all, to ship\) \| .*"question":0\.3/);
    assert.match(md, /\| pooled \| all \(1-4\) \| 2 \| 0\.000 \| 0\.000 \| 0\.600 \| 0\.000 \| 0\.500 \|/);
  });
});
