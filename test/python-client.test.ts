/**
 * The Python client (clients/python) against a live `memlane serve`: the server runs in this
 * process on a free loopback port and a temporary SQLite file, and the client's unittest suite
 * runs in python3 with the server's URL and a key in its environment. Skipped, saying why, on a
 * machine without python3.
 */
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli, startCli } from "./fixtures/run-cli.js";

const clientDir = fileURLToPath(new URL("../clients/python", import.meta.url));
const python = spawnSync("python3", ["--version"], { encoding: "utf8" });
const skip =
  python.status === 0 ? false : "python3 is not on this machine's PATH: the Python client is not tested";

describe("the Python client against memlane serve", { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-python-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("passes its unittest suite", { timeout: 240_000 }, async () => {
    const db = join(dir, "serve.db");
    const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };
    const made = await runCli(["--db", db, "keys", "create", "--tenant", "acme", "--json"], { env });
    assert.equal(made.code, 0, made.stderr);
    const { key } = JSON.parse(made.stdout) as { key: string };
    const served = startCli(["--db", db, "--json", "serve", "--port", "0"], { env });
    try {
      const { url } = JSON.parse(await served.waitForStdout(/"url"[\s\S]*\}/)) as { url: string };
      // Asynchronous: the server answers from this very event loop while python runs.
      const result = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          "python3",
          ["-m", "unittest", "discover", "-s", "tests", "-v"],
          {
            cwd: clientDir,
            env: { ...process.env, MEMLANE_URL: url, MEMLANE_API_KEY: key, PYTHONDONTWRITEBYTECODE: "1" },
            timeout: 200_000,
          },
          (error, stdout, stderr) =>
            resolve({
              code: error ? Number((error as { code?: number }).code ?? 1) : 0,
              output: stdout + stderr,
            }),
        );
      });
      assert.equal(result.code, 0, result.output);
      assert.match(result.output, /\nOK\b/, result.output);
      const ran = Number(/Ran (\d+) tests?/.exec(result.output)?.[1] ?? 0);
      const skipped = Number(/skipped=(\d+)/.exec(result.output)?.[1] ?? 0);
      assert.ok(ran >= 5 && skipped === 0, `ran ${ran}, skipped ${skipped}:\n${result.output}`);
    } finally {
      served.stop();
      await served.done;
    }
  });
});
