import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../../test/fixtures/run-cli.js";

/** The export without its header's `exportedAt`, the one thing two exports of the same rows differ in. */
const undated = (file: string) => file.replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');

const dir = mkdtempSync(join(tmpdir(), "memlane-export-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const memlane = (db: string, ...args: string[]) =>
  runCli(["--db", join(dir, db), ...args], {
    env: { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" },
  });

describe("memlane export and import", () => {
  it("exports to a file, imports it elsewhere, and refuses a bad file writing nothing", async () => {
    for (const text of ["Sam works as a nurse in Leeds.", "Sam has a beagle called Biscuit."]) {
      const added = await memlane("a.db", "memories", "add", text, "--agent", "ava", "--about", "sam");
      assert.equal(added.code, 0, added.stderr);
    }
    const file = join(dir, "ava.jsonl");
    const exported = await memlane("a.db", "export", "--agent", "ava", "--out", file);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, /exported 0 sessions, 0 turns, 2 memories/);
    const stdout = await memlane("a.db", "export", "--agent", "ava");
    assert.equal(undated(stdout.stdout), undated(readFileSync(file, "utf8")));

    const imported = await memlane("b.db", "--json", "import", file);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(JSON.parse(imported.stdout).written.memories, 2);
    assert.equal(undated((await memlane("b.db", "export", "--agent", "ava")).stdout), undated(stdout.stdout));

    const lines = stdout.stdout.trimEnd().split("\n");
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, [...lines.slice(0, 2), '{"type":"memory"}', ...lines.slice(2)].join("\n"));
    const refused = await memlane("c.db", "import", bad);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /Line 3: /);
    const empty = await memlane("c.db", "export", "--agent", "ava");
    assert.match(
      empty.stderr,
      /exported 0 sessions, 0 turns, 0 memories/,
      "the first good lines were not written",
    );

    const nobody = await memlane(
      "a.db",
      "export",
      "--agent",
      "ava",
      "--about",
      "nobody",
      "--out",
      join(dir, "n.jsonl"),
    );
    assert.equal(nobody.code, 4, nobody.stderr);
    assert.ok(!existsSync(join(dir, "n.jsonl")) && !existsSync(join(dir, "n.jsonl.partial")), "no file left");

    const help = await memlane("a.db", "import", "--help");
    assert.match(help.stdout, /checked whole first/);
  });
});
