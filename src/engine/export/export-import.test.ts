/**
 * Export and import on SQLite: a scope's round trip gives the same file and the same recall, a
 * person's part holds what is theirs, a bad line is refused with its number and writes nothing
 * of its batch, and a session the store recorded as forgotten does not come back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { demoTranscript, testMemlane } from "../../../test/fixtures/engine.js";
import type { Memlane } from "../memlane.js";

/** The export without its header's `exportedAt`, the one thing two exports of the same rows differ in. */
const undated = (file: string) => file.replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');

const quiet = { debug() {}, warn() {}, error() {} };

async function text(lines: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const line of lines) out += line;
  return out;
}

/** A scope with every kind of row: two sessions, a correction (a version chain), an added fact. */
async function seeded(): Promise<Memlane> {
  const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
  await mem.ingest(demoTranscript);
  await mem.ingest({
    agent: "ava",
    sessions: [
      {
        id: "k1",
        at: "2024-05-01T09:00",
        partner: "kim",
        turns: [{ speaker: "kim", text: "I play the cello in an orchestra." }],
      },
    ],
  });
  const { memory } = await mem.add("ava", { about: "sam", text: "Sam is allergic to peanuts." });
  await mem.update("ava", memory.id, "Sam is allergic to peanuts and cashews.");
  return mem;
}

const queries = ["Where does Sam work?", "Sam's dog", "allergies", "What does Kim play?"];

async function recallOf(mem: Memlane): Promise<string[][]> {
  const out: string[][] = [];
  for (const query of queries)
    out.push((await mem.recall({ agent: "ava", scope: "agent", query })).hits.map((h) => h.id));
  return out;
}

describe("export and import", () => {
  it("round-trips a scope SQLite to SQLite: the same file, the same recall", async () => {
    const source = await seeded();
    const target = await testMemlane({ strategy: "accumulate", logger: quiet });
    try {
      const file = await text(source.export({ agent: "ava" }));
      const lines = file
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      assert.equal(lines[0].type, "header");
      assert.equal(lines[0].format, "memlane-export");
      assert.equal(lines.at(-1).type, "end");
      const statuses = new Set(lines.filter((l) => l.type === "memory").map((l) => l.status));
      assert.ok(statuses.has("superseded"), "past versions are exported");
      assert.ok(lines.some((l) => l.type === "edge" && l.edgeType === "Supersedes"));
      assert.ok(lines.some((l) => l.type === "operation" && l.operationType === "UPDATE"));
      assert.ok(!lines.some((l) => l.type === "embedding"), "no vectors unless asked");

      const report = await target.import({ source: [file] });
      assert.deepEqual(report.agents, ["ava"]);
      assert.deepEqual(report.written, lines.at(-1).counts);
      assert.equal(undated(await text(target.export({ agent: "ava" }))), undated(file));
      const hits = await recallOf(source);
      assert.ok(
        hits.every((h) => h.length > 0),
        "every query finds something",
      );
      assert.deepEqual(await recallOf(target), hits);
      // Ids are kept: the same file again conflicts and writes nothing.
      await assert.rejects(target.import({ source: [file] }), { code: "CONFLICT" });
    } finally {
      await source.close();
      await target.close();
    }
  });

  it("carries vectors when asked, in chunks of any size", async () => {
    const source = await seeded();
    const target = await testMemlane({ strategy: "accumulate", logger: quiet });
    try {
      const file = await text(source.export({ agent: "ava", embeddings: true }));
      assert.ok(file.includes('"type":"embedding"'));
      const chunks = file.match(/[\s\S]{1,37}/g)!.map((c) => Buffer.from(c));
      await target.import({ source: chunks, batchRows: 3 });
      assert.equal(undated(await text(target.export({ agent: "ava", embeddings: true }))), undated(file));
    } finally {
      await source.close();
      await target.close();
    }
  });

  it("exports a person's part: their sessions and words, memories about them", async () => {
    const mem = await seeded();
    try {
      const lines = (await text(mem.export({ agent: "ava", about: "sam" })))
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      assert.equal(lines[0].about, "sam");
      const sessions = lines.filter((l) => l.type === "session").map((l) => l.id);
      assert.deepEqual(sessions.sort(), ["s1", "s2"]);
      assert.ok(
        lines.filter((l) => l.type === "turn").every((l) => l.speaker === "sam" || l.speaker === "ava"),
      );
      const memories = lines.filter((l) => l.type === "memory");
      assert.ok(memories.length > 0 && memories.every((m) => m.about === "sam"));
      assert.ok(!JSON.stringify(lines).includes("cello"), "nothing of kim");
      await assert.rejects(text(mem.export({ agent: "ava", about: "nobody" })), { code: "NOT_FOUND" });
      // An unknown field is refused on the call, before anything is read.
      assert.throws(() => mem.export({ agent: "ava", user_id: "sam" } as never), {
        code: "INVALID_INPUT",
        message: /user_id/,
      });
      await assert.rejects(mem.import({ source: [], colour: 1 } as never), {
        code: "INVALID_INPUT",
        message: /colour/,
      });
      await assert.rejects(mem.import({} as never), { code: "INVALID_INPUT", message: /needs `source`/ });
      // A person's part imports on its own: what it names outside itself has no foreign key.
      const alone = await testMemlane({ strategy: "accumulate", logger: quiet });
      try {
        const file = lines.map((l) => `${JSON.stringify(l)}\n`).join("");
        await alone.import({ source: [file] });
        assert.equal(
          undated(await text(alone.export({ agent: "ava" }))).split("\n").length,
          file.split("\n").length,
        );
        const hits = await alone.recall({ agent: "ava", about: "sam", query: "Where does Sam work?" });
        assert.ok(hits.hits.length > 0);
      } finally {
        await alone.close();
      }
    } finally {
      await mem.close();
    }
  });

  it("refuses a bad line with its number and writes nothing of its batch", async () => {
    const source = await seeded();
    const target = await testMemlane({ strategy: "accumulate", logger: quiet });
    try {
      const lines = (await text(source.export({ agent: "ava" }))).trimEnd().split("\n");
      const extra = JSON.parse(lines[1]!);
      extra.colour = "blue";
      const bad = [...lines.slice(0, 1), JSON.stringify(extra), ...lines.slice(2)].join("\n");
      await assert.rejects(
        target.import({ source: [bad] }),
        (e: Error & { code: string; details: { line: number } }) => {
          assert.equal(e.code, "INVALID_INPUT");
          assert.equal(e.details.line, 2);
          assert.match(e.message, /^Line 2: .*colour/);
          return true;
        },
      );
      assert.deepEqual(await target.sessions("ava"), []);
      const broken = [...lines.slice(0, 4), "{not json", ...lines.slice(4)].join("\n");
      await assert.rejects(target.import({ source: [broken] }), { message: /^Line 5: not a JSON value/ });
      const cut = lines.slice(0, -1).join("\n");
      await assert.rejects(target.import({ source: [cut], check: true }), { message: /end line/ });
      await assert.rejects(target.import({ source: ['{"format":"memlane-export","version":99}\n'] }), {
        message: /^Line 1: format version 99/,
      });
      assert.deepEqual(await target.sessions("ava"), []);
    } finally {
      await source.close();
      await target.close();
    }
  });

  it("refuses an export made before the scope forgot a person, writing nothing", async () => {
    const mem = await seeded();
    try {
      const sam = await text(mem.export({ agent: "ava", about: "sam" }));
      await mem.forget({ agent: "ava", about: "sam" });
      const left = await text(mem.export({ agent: "ava" }));
      await assert.rejects(
        mem.import({ source: [sam], check: true }),
        (e: Error & { code: string; details: Record<string, unknown> }) => {
          assert.equal(e.code, "CONFLICT");
          assert.equal(e.details.reason, "forgotten-since-export");
          assert.match(e.message, /^Line 2: agent "ava" forgot a person at .* after this export was made/);
          return true;
        },
      );
      await assert.rejects(mem.import({ source: [sam] }), { code: "CONFLICT" });
      assert.equal(undated(await text(mem.export({ agent: "ava" }))), undated(left), "nothing written");
      assert.ok(!(await mem.memories("ava", { status: "any" })).some((m) => m.about === "sam"));
      // An export made after the forget imports (into a store of its own).
      const other = await testMemlane({ strategy: "accumulate", logger: quiet });
      try {
        await other.import({ source: [left] });
      } finally {
        await other.close();
      }
    } finally {
      await mem.close();
    }
  });

  it("never brings back a session the store recorded as forgotten", async () => {
    const mem = await seeded();
    const other = await testMemlane({ strategy: "accumulate", logger: quiet });
    try {
      const before = await text(mem.export({ agent: "ava" }));
      // The other store held session k1 and forgot it: its log names k1, nothing else of it is left.
      await other.ingest({
        agent: "ava",
        sessions: [
          {
            id: "k1",
            at: "2024-05-01T09:00",
            partner: "kim",
            turns: [{ speaker: "kim", text: "I play the cello in an orchestra." }],
          },
        ],
      });
      await other.forget({ agent: "ava", sessionId: "k1" });
      const report = await other.import({ source: [before] });
      assert.deepEqual([report.skipped.sessions, report.skipped.turns], [1, 1]);
      assert.ok(report.skipped.memories >= 1);
      assert.equal(await other.getSession("ava", "k1"), null);
      assert.deepEqual((await other.sessions("ava")).map((x) => x.id).sort(), ["s1", "s2"]);
      const all = await other.memories("ava", { status: "any" });
      assert.ok(!all.some((m) => /cello/.test(m.text)), "no memory of the forgotten session");
      assert.ok(
        all.some((m) => /peanuts/.test(m.text)),
        "the rest is there",
      );
      assert.ok(!(await other.turns("ava")).some((t) => t.sessionId === "k1"));
    } finally {
      await mem.close();
      await other.close();
    }
  });
});
