import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { demoTranscript, testMemlane } from "../../../../test/fixtures/engine.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../../../core/errors.js";
import { HashEmbedder } from "../../../models/hash-embedder.js";
import { openMemlane } from "../../open-memlane.js";
import { loadTranscripts } from "./load.js";
import { readLocomo } from "./locomo.js";
import { validateTranscript } from "./transcript.js";

// LoCoMo is not in the repository: the folder MEMLANE_SHARED_DATA names holds it (CI sets it).
const LOCOMO = join(process.env.MEMLANE_SHARED_DATA ?? "/nonexistent", "locomo-dev/locomo-dev.json");

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InvalidInputError);
    return error.details.problems as string[];
  }
  assert.fail("expected an InvalidInputError");
}

describe("transcript validation", () => {
  it("collects every problem of a bad file in one typed error", () => {
    const problems = problemsOf(() =>
      validateTranscript({
        agent: "ava",
        sessions: [
          {
            id: "s1",
            at: "2024-03-02",
            partner: "sam",
            turns: [
              { speaker: "eve", text: "hi" },
              { speaker: "sam", text: "" },
            ],
          },
          { id: "s1", at: "2024-01-01", partner: "sam", turns: [] },
          {
            id: "s3",
            at: "not a date",
            partners: [],
            turns: [
              { speaker: "sam", text: "x", at: "2024-05-01T10:00" },
              { speaker: "sam", text: "y", at: "2024-05-01T09:00" },
            ],
          },
        ],
      }),
    );
    const text = problems.join("\n");
    for (const expected of [
      'unknown speaker "eve"',
      "empty text",
      "duplicate session id",
      "before the session listed above",
      "has no turns",
      "names no partner",
      'Cannot read "not a date"',
      "earlier than the turn before",
    ])
      assert.ok(text.includes(expected), `missing "${expected}" in:\n${text}`);
  });

  it("refuses the wrong shape, and duplicate turn ids", () => {
    assert.throws(() => validateTranscript({ sessions: "nope" }), InvalidInputError);
    const problems = problemsOf(() =>
      validateTranscript({
        agent: "ava",
        sessions: [
          {
            id: "s1",
            at: "2024-01-01",
            partner: "sam",
            turns: [
              { id: "t", speaker: "sam", text: "a" },
              { id: "t", speaker: "sam", text: "b" },
            ],
          },
        ],
      }),
    );
    assert.match(problems.join(), /duplicate turn id/);
  });

  it("reads files: missing, not JSON, unknown format", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-ingest-"));
    await assert.rejects(loadTranscripts(join(dir, "missing.json")), NotFoundError);
    writeFileSync(join(dir, "bad.json"), "{ not json");
    await assert.rejects(loadTranscripts(join(dir, "bad.json")), /not valid JSON/);
    writeFileSync(join(dir, "ok.json"), JSON.stringify(demoTranscript));
    await assert.rejects(loadTranscripts(join(dir, "ok.json"), { format: "csv" as never }), /Unknown format/);
    assert.equal((await loadTranscripts(join(dir, "ok.json")))[0]!.sessions.length, 2);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("LoCoMo format", {
  skip:
    !existsSync(LOCOMO) && "LoCoMo is not here: set MEMLANE_SHARED_DATA to the folder holding locomo-dev/",
}, () => {
  it("reads every conversation, with sessions in order and dia ids kept", async () => {
    const samples = readLocomo(
      JSON.parse(await import("node:fs/promises").then((fs) => fs.readFile(LOCOMO, "utf8"))),
    );
    assert.equal(samples.length, 3);
    const first = samples[0]!;
    assert.equal(first.transcript.agent, "Caroline");
    assert.equal(first.transcript.sessions.length, 19);
    assert.equal(first.transcript.sessions[0]!.at, "2023-05-08T13:56:00.000Z");
    assert.equal(first.transcript.sessions[0]!.turns[2]!.id, `${first.sampleId}:D1:3`);
    assert.ok(first.qa.length > 0);
    const swapped = readLocomo(
      JSON.parse(await import("node:fs/promises").then((fs) => fs.readFile(LOCOMO, "utf8"))),
      { agent: "Melanie" },
    );
    assert.equal(swapped[0]!.transcript.agent, "Melanie");
  });

  it("refuses a sample without a conversation", () => {
    assert.throws(() => readLocomo([{ qa: [] }]), InvalidInputError);
  });
});

describe("ingest", () => {
  it("embeds each turn once, as 'Speaker: words', and stores the vector with the turn", async () => {
    const seen: string[] = [];
    const inner = new HashEmbedder(64);
    const recording = {
      specificationVersion: "v1" as const,
      name: inner.name,
      dimensions: inner.dimensions,
      embed: async (texts: string[]) => {
        seen.push(...texts);
        return inner.embed(texts);
      },
    };
    const mem = await openMemlane({ store: ":memory:", embedder: recording, strategy: "none" });
    const transcript = validateTranscript(demoTranscript, "demo");
    await mem.ingest(transcript);
    const turns = await mem.store.listTurns(mem.scope("ava"));
    assert.equal(turns.length, transcript.sessions.flatMap((s) => s.turns).length);
    for (const t of turns) assert.equal(seen.filter((x) => x === `${t.speaker}: ${t.text}`).length, 1, t.id);
    const stored = await mem.store.getEmbeddings(
      mem.scope("ava"),
      "turn",
      turns.map((t) => t.id),
      inner.name,
    );
    assert.equal(stored.size, turns.length);
    await mem.close();
  });

  it("is resumable: a second run skips what is stored; different content is a conflict", async () => {
    const mem = await testMemlane();
    const transcript = validateTranscript(demoTranscript);
    const first = await mem.ingest(transcript);
    assert.equal(first.ingested, 2);
    const count = (await mem.memories("ava")).length;
    const second = await mem.ingest(transcript);
    assert.equal(second.skipped, 2);
    assert.equal((await mem.memories("ava")).length, count);
    const changed = structuredClone(demoTranscript);
    changed.sessions[1]!.turns[1]!.text = "Something else entirely.";
    changed.sessions.push({
      id: "s3",
      at: "2024-05-01",
      partner: "sam",
      turns: [{ speaker: "sam", text: "new" }],
    });
    await assert.rejects(mem.ingest(validateTranscript(changed)), ConflictError);
    assert.equal(
      (await mem.store.listSessions(mem.scope("ava"))).length,
      2,
      "nothing of the conflicting file was stored",
    );
    await mem.close();
  });
  // Killed mid-ingest and run again: a case of the store conformance suite (every store runs it).
});
