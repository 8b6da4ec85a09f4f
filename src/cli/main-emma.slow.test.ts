/**
 * EMMA at the memlane command line, run in this process (test/fixtures/run-cli.ts). The EMMA
 * evaluations (`eval emma`, `eval emma-links`) are the lab's: lab/test/lab-cli.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../../test/fixtures/run-cli.js";

function memlane(...args: string[]) {
  // The demo runs on the bundled encoder: the offline link judge's threshold was chosen for it.
  const embedder = args.includes("demo") ? "use" : "hash";
  return runCli(args, { env: { ...process.env, MEMLANE_EMBEDDER: embedder, NO_COLOR: "1" } });
}

describe("memlane CLI: emma", () => {
  it("has --help on every EMMA command", async () => {
    const r = await memlane("simulate", "--help");
    assert.equal(r.code, 0, "simulate");
    assert.match(r.stdout, /Usage: memlane/);
    assert.match((await memlane("ingest", "--help")).stdout, /misc/);
  });

  it("refuses --agent with --format misc instead of ignoring it (exit 3, nothing read)", async () => {
    const r = await memlane(
      "--db",
      ":memory:",
      "ingest",
      "no-such-file.jsonl",
      "--format",
      "misc",
      "--agent",
      "ava",
    );
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /--agent applies to LoCoMo/);
  });

  it("runs the mixed-session demo: memories about herself and each partner, links, cross-partner answers", async () => {
    const r = await memlane("demo", "--strategy", "emma", "--json");
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      sessions: unknown[];
      memories: { about: string }[];
      links: unknown[];
      answers: { partner: string; hits: string[] }[];
    };
    assert.equal(out.sessions.length, 6);
    const about = new Set(out.memories.map((m) => m.about));
    for (const who of ["nadia", "tomas", "greta", "oskar"]) assert.ok(about.has(who), who);
    assert.ok(out.links.length > 0);
    assert.equal(out.answers.length, 4);
  });
});
