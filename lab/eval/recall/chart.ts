/** A small grouped bar chart (SVG, no dependencies) of recall@k by category for each ranker. */
import { CATEGORY_NAMES, type RecallReport } from "./evaluate.js";

const COLORS = [
  "#8a8f98",
  "#c7a252",
  "#6f9bd1",
  "#2f8f5b",
  "#b5566b",
  "#7d5ba6",
  "#d17f45",
  "#4aa3a2",
  "#a3a847",
  "#5c6bc0",
];

export function recallChart(r: RecallReport, k: number): string {
  const groups = ["all", "1", "2", "3", "4"].filter((g) => r.questionsByCategory[g]);
  const bar = 18;
  const gap = 26;
  const groupWidth = r.rankers.length * bar + gap;
  const width = 60 + groups.length * groupWidth + 140;
  const height = 260;
  const y = (v: number) => 220 - v * 180;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<text x="10" y="18" font-size="13">LoCoMo turn recall@${k} by category</text>`,
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      `<line x1="50" x2="${width - 140}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/><text x="20" y="${y(t) + 4}">${t.toFixed(2)}</text>`,
    );
  groups.forEach((g, gi) => {
    const x0 = 60 + gi * groupWidth;
    r.rankers.forEach((ranker, ri) => {
      const v = r.recall[ranker]?.[g]?.[k] ?? 0;
      parts.push(
        `<rect x="${x0 + ri * bar}" y="${y(v)}" width="${bar - 3}" height="${220 - y(v)}" fill="${COLORS[ri % COLORS.length]}"><title>${ranker}: ${v.toFixed(3)}</title></rect>`,
      );
    });
    parts.push(`<text x="${x0}" y="238">${g === "all" ? "all 1-4" : CATEGORY_NAMES[Number(g)]}</text>`);
  });
  for (const [ri, ranker] of r.rankers.entries())
    parts.push(
      `<rect x="${width - 120}" y="${40 + ri * 18}" width="12" height="12" fill="${COLORS[ri % COLORS.length]}"/><text x="${width - 102}" y="${50 + ri * 18}">${ranker}</text>`,
    );
  parts.push("</svg>");
  return parts.join("\n");
}
