/**
 * The conformance cases that need other processes on the same store: two writers at once, a
 * writer killed mid-write, an ingest killed mid-way and run again. Every store whose factory gives
 * a `spec` (how another process opens it) inherits them; without one they are skipped, saying why.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { resolveStore } from "../engine/config.js";
import { validateTranscript } from "../engine/ingest/formats/transcript.js";
import { openMemlane } from "../engine/open-memlane.js";
import { session } from "./rows.js";
import type { StoreFactory } from "./store-factory.js";

const scope = { tenant: "conformance", agent: "ava" };

export function runProcessCases(factory: StoreFactory): void {
  it("serialises two writer processes without losing or breaking a batch", async (t) => {
    const { store, cleanup, spec } = await factory();
    try {
      if (!spec) return t.skip("no spec to open this store from another process");
      // Both writers open the store first, then start at the same moment, so they really overlap.
      const writers = ["a", "b"].map((w) => worker(spec, w, 150, true));
      await Promise.all(writers.map((w) => w.ready));
      for (const w of writers) w.child.stdin?.end("go\n");
      const codes = await Promise.all(writers.map((w) => w.exited));
      assert.deepEqual(codes, [0, 0]);
      assert.equal((await store.listSessions(scope)).length, 300);
      assert.equal((await store.listTurns(scope)).length, 900);
      assert.equal((await store.listMemories(scope)).length, 300);
    } finally {
      await store.close();
      await cleanup?.();
    }
  });

  it("keeps every batch whole when a writer is killed mid-write, and opens again", async (t) => {
    const { store, cleanup, spec, verify } = await factory();
    await store.close();
    try {
      if (!spec) return t.skip("no spec to open this store from another process");
      const w = worker(spec, "k", 100_000);
      await w.ready;
      // Kill it once it has written something (a fixed delay flakes on a loaded machine), then a
      // little later, so the kill lands among writes.
      const probe = await resolveStore(spec);
      try {
        const deadline = Date.now() + 60_000;
        while ((await probe.listSessions(scope)).length === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 25));
      } finally {
        await probe.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      w.child.kill("SIGKILL");
      await w.exited;
      await verify?.();
      const again = await resolveStore(spec);
      const sessions = await again.listSessions(scope);
      assert.ok(sessions.length > 0, "the writer wrote before it was killed");
      const turns = await again.listTurns(scope);
      const memories = await again.listMemories(scope);
      assert.equal(turns.length, 3 * sessions.length, "no session holds part of its turns");
      assert.equal(memories.length, sessions.length, "no session lacks its memory");
      await again.write(scope, { sessions: [session(scope, "after-crash")] });
      await again.close();
    } finally {
      await cleanup?.();
    }
  });

  it("leaves whole sessions when an ingest is killed mid-way, and a rerun completes it", async (t) => {
    const { store, cleanup, spec, verify } = await factory();
    await store.close();
    const dir = mkdtempSync(join(tmpdir(), "memlane-kill-"));
    try {
      if (!spec) return t.skip("no spec to open this store from another process");
      const total = 60;
      const sessions = Array.from({ length: total }, (_, i) => ({
        id: `s${i}`,
        at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
        partner: "sam",
        turns: Array.from({ length: 10 }, (_, n) => ({
          speaker: n % 2 ? "ava" : "sam",
          text: `Session ${i} turn ${n}: I started training for race number ${i * 10 + n} in Leeds with my coach.`,
        })),
      }));
      const file = join(dir, "long.json");
      writeFileSync(file, JSON.stringify({ agent: scope.agent, sessions }));
      const child = cli(["ingest", file, "--db", spec, "--tenant", scope.tenant, "--embedder", "hash"]);
      // Killed once it has stored a few sessions, wherever it is then.
      await new Promise<void>((resolve) => {
        child.stderr.on("data", (chunk: Buffer) => {
          if (/ingest ([5-9]|[1-9][0-9])\//.test(chunk.toString())) {
            child.kill("SIGKILL");
            resolve();
          }
        });
        child.on("exit", () => resolve());
      });
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on("exit", resolve)));
      await verify?.();
      const opened = await resolveStore(spec);
      const stored = await opened.listSessions(scope);
      const turns = await opened.listTurns(scope);
      await opened.close();
      assert.ok(
        stored.length > 0 && stored.length < total,
        `the killed run stored ${stored.length} sessions`,
      );
      for (const s of stored)
        assert.equal(turns.filter((x) => x.sessionId === s.id).length, 10, `session ${s.id} is whole`);
      const mem = await openMemlane({ store: spec, tenant: scope.tenant, embedder: "hash" });
      try {
        const report = await mem.ingest(validateTranscript({ agent: scope.agent, sessions }));
        assert.equal(report.ingested + report.resumed + report.skipped, total);
        assert.equal(report.failed, 0);
        const all = await mem.store.listSessions(scope);
        assert.equal(all.length, total);
        assert.ok(all.every((s) => s.status === "consolidated"));
        // No session was consolidated twice.
        const summaries = (await mem.store.listOperations(scope)).filter((o) => o.type === "SUMMARIZE");
        assert.equal(new Set(summaries.map((o) => o.sessionId)).size, summaries.length);
      } finally {
        await mem.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await cleanup?.();
    }
  });
}

/** The .ts source under tsx (tests), the compiled .js otherwise. */
function script(name: string): string[] {
  const ts = import.meta.url.endsWith(".ts");
  const file = fileURLToPath(new URL(ts ? `${name}.ts` : `${name}.js`, import.meta.url));
  return [...(ts ? ["--import", "tsx"] : []), file];
}

/** The memlane command in a child process. */
function cli(args: string[]) {
  return spawn(process.execPath, [...script("../cli/main"), ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** Starts a store worker process (store-worker.ts). */
function worker(spec: string, writer: string, batches: number, together = false) {
  const args = [...script("./store-worker"), spec, writer, String(batches), ...(together ? ["wait"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const ready = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, ready, exited };
}
