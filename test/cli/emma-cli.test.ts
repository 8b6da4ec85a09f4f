import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;

function memlane(...args: string[]) {
  // The demo runs on the bundled encoder: the offline link judge's threshold was chosen for it.
  const embedder = args.includes("demo") ? "use" : "hash";
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, MEMLANE_EMBEDDER: embedder, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("memlane CLI: emma", () => {
  it("has --help on every EMMA command", () => {
    for (const cmd of [["simulate"], ["eval", "emma"], ["eval", "emma-links"]]) {
      const r = memlane(...cmd, "--help");
      assert.equal(r.code, 0, cmd.join(" "));
      assert.match(r.stdout, /Usage: memlane/);
    }
    assert.match(memlane("ingest", "--help").stdout, /misc/);
  });

  it("refuses --agent with --format misc instead of ignoring it (exit 3, nothing read)", () => {
    const r = memlane(
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

  it("runs the mixed-session demo: memories about herself and each partner, links, cross-partner answers", () => {
    const r = memlane("demo", "--strategy", "emma", "--json");
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

  it("refuses bad lab options with exit code 3", () => {
    const r = memlane("eval", "emma", "--part", "middle");
    assert.equal(r.code, 3);
    assert.match(r.stderr, /--part must be all, tune or test/);
    assert.equal(memlane("eval", "emma-links", "--judge", "vibes").code, 3);
  });
});
