/**
 * A MemoryFilter as a test on one memory, with who may hear it: the meaning the SQL stores give
 * the same filter in their WHERE clause (store/sql/memory-filter.ts), written here as a table.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hearingTest, presentPartners } from "./audience.js";
import { memoryFilterTest } from "./memory-filter.js";
import type { Memory, MemoryFilter } from "./types.js";

const memory = (id: string, extra: Partial<Memory> = {}): Memory => ({
  id,
  tenant: "t",
  agent: "ada",
  about: "bob",
  text: id,
  kind: "fact",
  strategy: "emma",
  observedAt: "2024-01-01",
  recordedAt: "2024-01-01",
  status: "active",
  invalidAt: null,
  sessionId: "s1",
  sourceTurns: [],
  attributes: {},
  ...extra,
});

const memories = [
  memory("active"),
  memory("past", { status: "superseded" }),
  memory("gone", { status: "forgotten" }),
  memory("cy", { about: "cy", kind: "plan", strategy: "carecall", sessionId: "s2" }),
];

describe("memoryFilterTest", () => {
  const cases: [name: string, filter: MemoryFilter | undefined, admitted: string][] = [
    ["no filter admits the active memories", undefined, "active cy"],
    ['status "any" admits every status', { status: "any" }, "active past gone cy"],
    ["a status list admits each listed status", { status: ["superseded", "forgotten"] }, "past gone"],
    ["about admits one person or a list", { about: ["cy", "zed"] }, "cy"],
    ["kind", { kind: "plan" }, "cy"],
    ["strategy", { strategy: "emma", status: "any" }, "active past gone"],
    ["session", { sessionId: "s2" }, "cy"],
    ["ids", { ids: ["past", "cy"], status: "any" }, "past cy"],
    ["an empty id list admits nothing", { ids: [], status: "any" }, ""],
    ["every field given must match", { about: "bob", kind: "plan" }, ""],
  ];
  for (const [name, filter, admitted] of cases)
    test(`${name}: ${admitted || "none"}`, () => {
      const test = memoryFilterTest(filter);
      assert.equal(
        memories
          .filter(test)
          .map((m) => m.id)
          .join(" "),
        admitted,
      );
    });
});

describe("hearingTest", () => {
  const heard = [
    memory("open-to-bob", { attributes: { audience: ["bob"] } }),
    memory("open-to-both", { attributes: { audience: ["bob", "cy"] } }),
    memory("private-bob", { attributes: { audience: ["bob", "cy"], privateTo: ["bob"] } }),
    // Written before audiences were kept: heard by the one it is about.
    memory("old-about-cy", { about: "cy" }),
    memory("old-about-bob"),
    // A malformed audience counts as none.
    memory("odd-audience", { about: "dee", attributes: { audience: "cy" } }),
  ];
  const cases: [scope: "agent" | "partner", partners: string[], admitted: string][] = [
    ["agent", ["bob"], "open-to-bob open-to-both private-bob old-about-cy old-about-bob odd-audience"],
    ["agent", ["cy"], "open-to-bob open-to-both old-about-cy old-about-bob odd-audience"],
    ["partner", ["cy"], "open-to-both old-about-cy"],
    ["partner", ["bob"], "open-to-bob open-to-both private-bob old-about-bob"],
    ["partner", ["cy", "bob"], "open-to-bob open-to-both private-bob old-about-cy old-about-bob"],
    ["partner", [], ""],
  ];
  for (const [scope, partners, admitted] of cases)
    test(`under ${scope} scope for ${JSON.stringify(partners)}: ${admitted || "none"}`, () => {
      const test = hearingTest({ scope, partners });
      assert.equal(
        heard
          .filter(test)
          .map((m) => m.id)
          .join(" "),
        admitted,
      );
    });

  test("a filter with a hearing applies it after the other fields", () => {
    const test = memoryFilterTest({ hearing: { scope: "partner", partners: ["cy"] } });
    assert.deepEqual(
      heard.filter(test).map((m) => m.id),
      ["open-to-both", "old-about-cy"],
    );
  });
});

describe("presentPartners", () => {
  const cases: [partners: string[], meta: Record<string, unknown>, present: string[]][] = [
    [["bob", "cy"], {}, ["bob", "cy"]],
    [["bob", "cy"], { left: { cy: "2024-01-01" } }, ["bob"]],
    [["bob"], { left: null }, ["bob"]],
    [["bob"], { left: "cy" }, ["bob"]],
  ];
  for (const [partners, meta, present] of cases)
    test(`${JSON.stringify(partners)} with ${JSON.stringify(meta)} are ${JSON.stringify(present)} now`, () => {
      assert.deepEqual(presentPartners({ partners, meta }), present);
    });
});

describe("memoryFilterTest on dates and meta", () => {
  // Learned on the 10th, replaced on the 20th.
  const past = memory("past", {
    observedAt: "2024-01-10T00:00:00.000Z",
    invalidAt: "2024-01-20T00:00:00.000Z",
    status: "superseded",
    attributes: { meta: { topic: "work" } },
  });
  const cases: [name: string, filter: MemoryFilter, admits: boolean][] = [
    ["learned in the range", { status: "any", observedAfter: "2024-01-10T00:00:00.000Z" }, true],
    ["learned before the range", { status: "any", observedAfter: "2024-01-11T00:00:00.000Z" }, false],
    ["observedBefore is exclusive", { status: "any", observedBefore: "2024-01-10T00:00:00.000Z" }, false],
    [
      "current on the 15th",
      { status: "any", validAfter: "2024-01-15T00:00:00.000Z", validBefore: "2024-01-15T00:00:00.000Z" },
      true,
    ],
    ["no longer current on the 20th", { status: "any", validAfter: "2024-01-20T00:00:00.000Z" }, false],
    ["not yet current on the 5th", { status: "any", validBefore: "2024-01-05T00:00:00.000Z" }, false],
    ["its meta", { status: "any", meta: { topic: { in: ["home", "work"] } } }, true],
    ["another meta", { status: "any", meta: { topic: "home" } }, false],
    ["a superseded memory is not active", { meta: { topic: "work" } }, false],
  ];
  for (const [name, filter, admits] of cases)
    test(name, () => assert.equal(memoryFilterTest(filter)(past), admits));
});
