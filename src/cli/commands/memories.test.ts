import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../../test/fixtures/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-memories-"));
const db = join(dir, "m.db");
after(() => rmSync(dir, { recursive: true, force: true }));

const memlane = (...args: string[]) =>
  runCli(["--db", db, ...args], { env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" } });

describe("memlane memories", () => {
  it("adds, updates and restores a memory, printing each change, with history and --json", async () => {
    const added = await memlane(
      "--json",
      "memories",
      "add",
      "Sam works as a nurse.",
      "--agent",
      "ava",
      "--about",
      "sam",
      "--meta",
      '{"source":"crm"}',
    );
    assert.equal(added.code, 0, added.stderr);
    const { memory } = JSON.parse(added.stdout) as { memory: { id: string; attributes: { meta: unknown } } };
    assert.deepEqual(memory.attributes.meta, { source: "crm" });

    // The agent is found from the id when --agent is left out.
    const updated = await memlane("memories", "update", memory.id, "Sam works as a midwife.");
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(
      updated.stdout,
      /^updated: mem_\S+ active .*\[sam\] Sam works as a midwife\.\n {2}was: {3}\S+ superseded .*Sam works as a nurse\./,
    );

    const stale = await memlane("memories", "update", memory.id, "Sam is a vet.", "--agent", "ava");
    assert.equal(stale.code, 5, "a past version is a conflict");
    assert.match(stale.stderr, /not active; the current version is/);

    const restored = await memlane("memories", "restore", memory.id);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^restored: \S+ active .*nurse.*\n {2}retired: \S+ superseded .*midwife/);

    const history = await memlane("history", memory.id);
    assert.match(
      history.stdout,
      /corrections:\n {4}added by the caller on .*\n {4}updated by the caller on .*became “Sam works as a midwife\.”\n {4}restored on .*current again/,
    );
  });

  it("refuses bad input with exit code 3 and stores nothing, and has --help", async () => {
    for (const args of [
      ["memories", "add", "Sam has a cat.", "--agent", "ava", "--about", "sam", "--meta", "[1]"],
      ["memories", "add", "  ", "--agent", "ava", "--about", "sam"],
      ["memories", "add", "Sam has a cat.", "--agent", "ava", "--about", "sam", "--at", "someday"],
    ]) {
      const run = await memlane(...args);
      assert.equal(run.code, 3, `${args.join(" ")}: ${run.stderr}`);
    }
    const listed = await memlane("--json", "inspect", "--agent", "ava", "--memories", "--all");
    assert.match(listed.stdout, /nurse/, "the listing holds the memories");
    assert.doesNotMatch(listed.stdout, /cat/);
    assert.equal((await memlane("memories", "restore", "mem_nope", "--agent", "ava")).code, 4);
    const help = await memlane("memories", "--help");
    assert.match(help.stdout, /update .*restore .*add/s);
    assert.match((await memlane("memories", "add", "--help")).stdout, /--about <subject>/);
  });

  it("lists a page of memories filtered by meta and dates, and the next page by its cursor", async () => {
    for (const [text, topic, at] of [
      ["Kim runs a bakery.", "work", "2024-01-02"],
      ["Kim has two cats.", "home", "2024-02-02"],
      ["Kim bakes at dawn.", "work", "2024-03-02"],
    ] as const) {
      const r = await memlane(
        "memories",
        "add",
        text,
        "--agent",
        "kai",
        "--about",
        "kim",
        "--at",
        at,
        "--meta",
        JSON.stringify({ topic }),
      );
      assert.equal(r.code, 0, r.stderr);
    }
    const first = await memlane(
      "--json",
      "memories",
      "list",
      "--agent",
      "kai",
      "--meta",
      "topic=work",
      "--limit",
      "1",
    );
    assert.equal(first.code, 0, first.stderr);
    const page = JSON.parse(first.stdout) as { memories: { text: string }[]; nextCursor: string };
    assert.deepEqual(
      page.memories.map((m) => m.text),
      ["Kim runs a bakery."],
    );
    const next = await memlane(
      "memories",
      "list",
      "--agent",
      "kai",
      "--meta",
      "topic=work",
      "--limit",
      "1",
      "--cursor",
      page.nextCursor,
    );
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stdout, /Kim bakes at dawn\./);
    assert.doesNotMatch(next.stdout, /bakery|cats/);
    const spring = await memlane(
      "memories",
      "list",
      "--agent",
      "kai",
      "--observed-after",
      "2024-02-01",
      "--observed-before",
      "2024-03-01",
    );
    assert.match(spring.stdout, /^\S+ active .*Kim has two cats\.\n$/);
    const bad = await memlane("memories", "list", "--agent", "kai", "--cursor", "nonsense");
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /cursor/);
  });
});
