/**
 * The real binary, started as a process: the only CLI tests that spawn one (every other runs the
 * command line in its own process). Through a symlink, as npx and npm's bin links start it; its
 * help; and output piped to another program arriving whole, which needs bin.ts to exit only once
 * stdout has flushed (exiting at once used to cut it at 64 KiB).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { bigTranscript } from "../../test/fixtures/engine.js";
import { runCli } from "../../test/fixtures/run-cli.js";

const BIN = new URL("./bin.ts", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "memlane-smoke-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("memlane, the binary", () => {
  it("prints its version when started through a symlink, as npx and npm's bin links start it", () => {
    const link = join(dir, "memlane-link.ts");
    symlinkSync(BIN, link);
    const r = spawnSync(process.execPath, ["--import", "tsx", link, "--version"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\d+\.\d+\.\d+/);
  });

  it("prints its help, naming the commands", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", BIN, "--help"], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(r.status, 0, r.stderr);
    for (const cmd of [
      "demo",
      "ingest",
      "recall",
      "history",
      "timeline",
      "inspect",
      "forget",
      "retry",
      "chat",
    ])
      assert.match(r.stdout, new RegExp(`\\b${cmd}\\b`));
  });

  it("pipes large JSON whole to another program", async () => {
    const db = join(dir, "big.db");
    const big = join(dir, "big.json");
    writeFileSync(big, JSON.stringify(bigTranscript()));
    const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };
    // Filling the database is not what is tested here: in this process.
    const ingest = await runCli(["ingest", big, "--db", db, "--strategy", "accumulate"], { env });
    assert.equal(ingest.code, 0, ingest.stderr);
    const child = spawn(
      process.execPath,
      ["--import", "tsx", BIN, "inspect", "--db", db, "--json", "--agent", "bigagent", "--memories", "--all"],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    assert.equal(code, 0, err);
    assert.ok(out.length > 65_536, `only ${out.length} characters`);
    assert.equal(JSON.parse(out).agents[0].memoryList.length, 250);
  });
});
