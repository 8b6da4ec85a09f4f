import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { benchRecallSignals } from "../bench/recall-signals.js";

/** What the bench printed, line by line. */
async function printed(args: string[]): Promise<string[]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(" "));
  try {
    await benchRecallSignals(args);
  } finally {
    console.log = log;
  }
  return lines.flatMap((l) => l.split("\n"));
}

describe("bench recall --signals", () => {
  it("times every signal with it and without it, for turns and memories", async () => {
    const lines = await printed(["--sizes", "300", "--queries", "6"]);
    const row = (unit: string, signal: string) =>
      lines
        .find((l) => l.startsWith(`| ${unit} | 300 | ${signal} |`))
        ?.split("|")
        .map((c) => c.trim());
    const number = /^-?\d+\.\d\d$/;
    for (const signal of ["subject", "time", "dated", "recency", "neighbour", "question", "length"]) {
      const cells = row("turns", signal);
      assert.ok(cells, `a turn row for ${signal}`);
      // with p50 / p95, without p50 / p95, the cost
      for (const cell of [...cells[4]!.split(" / "), ...cells[5]!.split(" / "), cells[6]!])
        assert.match(cell, number, `${signal}: ${cells.join("|")}`);
    }
    for (const alone of ["dense alone", "bm25 alone", "hybrid (every signal)"])
      assert.match(row("turns", alone)?.[4] ?? "", /^\d+\.\d\d \/ \d+\.\d\d$/, alone);
    for (const step of ["source", "subject", "time", "recency", "cover", "event reading", "2 missed turns"])
      assert.match(row("memories", step)?.[6] ?? "", number, step);
  });

  it("refuses bad flags before filling anything", async () => {
    await assert.rejects(benchRecallSignals(["--units", "edges"]), /--units takes turns, memories/);
    await assert.rejects(benchRecallSignals(["--sizes", "0"]), /whole numbers above 0/);
    await assert.rejects(benchRecallSignals(["--words", "loud"]), /--words takes flat or zipf/);
  });
});
