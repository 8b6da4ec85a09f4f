import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { ConflictError, InvalidInputError, NotFoundError } from "../../src/core/errors.js";
import { loadTranscripts } from "../../src/engine/formats/load.js";
import { readLocomo } from "../../src/engine/formats/locomo.js";
import { validateTranscript } from "../../src/engine/formats/transcript.js";
import { openMemlane } from "../../src/engine/memlane.js";
import { HashEmbedder } from "../../src/models/test-doubles.js";
import { demoTranscript, testMemlane } from "../fixtures/engine.js";

const LOCOMO = new URL("../../../shared/data/locomo-dev/locomo-dev.json", import.meta.url).pathname;

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
  skip: !existsSync(LOCOMO) && "../shared/data/locomo-dev is not beside the repo",
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

  it("leaves a consistent database when killed mid-ingest, and a rerun completes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-kill-"));
    const db = join(dir, "m.db");
    const file = join(dir, "long.json");
    const sessions = Array.from({ length: 150 }, (_, i) => ({
      id: `s${i}`,
      at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
      partner: "sam",
      turns: Array.from({ length: 12 }, (_, t) => ({
        speaker: t % 2 ? "ava" : "sam",
        text: `Session ${i} turn ${t}: I started training for race number ${i * 12 + t} in Leeds with my coach.`,
      })),
    }));
    writeFileSync(file, JSON.stringify({ agent: "ava", sessions }));
    const cli = new URL("../../src/cli/main.ts", import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", cli, "ingest", file, "--db", db, "--embedder", "hash"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    // Kill it once it has stored some sessions, wherever it is.
    await new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        if (/ingest (1[0-9]|[2-9][0-9])\//.test(chunk.toString())) {
          child.kill("SIGKILL");
          resolve();
        }
      });
      child.on("exit", () => resolve());
    });
    await new Promise((r) => child.on("exit", r));
    const raw = new Database(db);
    assert.equal(raw.pragma("integrity_check", { simple: true }), "ok");
    assert.deepEqual(raw.pragma("foreign_key_check"), []);
    const partial = raw
      .prepare(
        "SELECT s.id, s.status, count(t.id) AS n FROM sessions s LEFT JOIN turns t ON t.session_id = s.id GROUP BY s.id",
      )
      .all() as { id: string; status: string; n: number }[];
    raw.close();
    assert.ok(partial.length > 0 && partial.length < 150, `killed run stored ${partial.length} sessions`);
    for (const s of partial) assert.equal(s.n, 12, `session ${s.id} is whole`);
    const mem = await openMemlane({ store: db, embedder: "hash" });
    const report = await mem.ingest(validateTranscript({ agent: "ava", sessions }));
    assert.equal(report.ingested + report.resumed + report.skipped, 150);
    assert.equal(report.failed, 0);
    const stored = await mem.store.listSessions(mem.scope("ava"));
    assert.equal(stored.length, 150);
    assert.ok(stored.every((s) => s.status === "consolidated"));
    // No session was consolidated twice.
    const summaries = (await mem.store.listOperations(mem.scope("ava"))).filter(
      (o) => o.type === "SUMMARIZE",
    );
    assert.equal(new Set(summaries.map((o) => o.sessionId)).size, summaries.length);
    await mem.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
