/**
 * A forget that is final: it reaches what is not stored yet. An upload running when the forget
 * comes (REST, in process) stores nothing of the forgotten person or session and still finishes;
 * a server killed mid-upload, a forget on the command line while it is down, and a restart: the
 * job takes over, skips what was forgotten and stores the rest; a queued consolidation and a
 * retried failure bring nothing back. And a forget by person names a person: a common word
 * ("it", "i", "the") erases nothing and is NOT_FOUND, listing who is there.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { NotFoundError } from "../../src/core/errors.js";
import { ScriptedChatModel } from "../../src/models/test-doubles.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import { testMemlane } from "../fixtures/engine.js";
import { runCli } from "../fixtures/run-cli.js";
import { servedUrl } from "../fixtures/served-url.js";
import { sqliteRows } from "../fixtures/sqlite-rows.js";
import { testService } from "../fixtures/test-service.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-forget-pending-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };

const day = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString();
/** Sam's words carry Bergen and Rex; Kim's Lisbon and the cello: what each left is easy to find. */
const samSays = (i: number) => `Week ${i}: I hiked near Bergen with my dog Rex, and my sister visited.`;
const kimSays = (i: number) => `Week ${i}: I practised the cello in Lisbon, and it went well.`;

/** Sessions with sam (even) and kim (odd), four turns each. */
function upload(sessions: number) {
  return {
    agent: "ava",
    sessions: Array.from({ length: sessions }, (_, i) => {
      const partner = i % 2 === 0 ? "sam" : "kim";
      const says = i % 2 === 0 ? samSays(i) : kimSays(i);
      return {
        id: `s${i}`,
        at: day(i),
        partner,
        turns: [
          { speaker: "ava", text: "How was your week?" },
          { speaker: partner, text: says },
          { speaker: "ava", text: `I am glad to hear it. ${says.split(": ")[1]}` },
          { speaker: partner, text: "Thanks for asking, as ever." },
        ],
      };
    }),
  };
}

const samLeft = /Bergen|Rex|sister/;

describe("forget reaches uploads that are still running", () => {
  it("a forget by REST during an ingest job: the job stores nothing of sam or of s31, and finishes", async () => {
    const s = await testService({ engine: { strategy: "accumulate" } });
    try {
      const acme = s.mem.tenant("acme");
      const scope = { tenant: "acme", agent: "ava" };
      const posted = await s.call(s.acme, "POST", "/v1/ingest", upload(32));
      assert.equal(posted.status, 202);
      const { job } = (await posted.json()) as { job: { id: string } };
      // Forgotten a few sessions in: most of the upload is still waiting.
      for (let i = 0; i < 2000; i++) {
        const done = (await acme.store.listSessions(scope, { status: "consolidated" })).length;
        if (done >= 3) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const stored = (await acme.store.listSessions(scope)).length;
      assert.ok(stored < 28, `forgotten while the upload runs (${stored} sessions stored)`);
      const bySam = await s.call(s.acme, "POST", "/v1/forget", { agent: "ava", about: "sam" });
      assert.equal(bySam.status, 200, await bySam.clone().text());
      // s31 is not stored yet: it is in the upload, so it can be forgotten (not 404).
      const bySession = await s.call(s.acme, "POST", "/v1/forget", { agent: "ava", sessionId: "s31" });
      assert.equal(bySession.status, 200, await bySession.clone().text());

      let shown: Record<string, unknown> = {};
      for (let i = 0; i < 1200; i++) {
        shown = (await (await s.call(s.acme, "GET", `/v1/jobs/${job.id}`)).json()) as Record<string, unknown>;
        if (shown.state === "done" || shown.state === "failed") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(shown.state, "done", JSON.stringify(shown).slice(0, 2000));

      const turns = await acme.store.listTurns(scope);
      assert.deepEqual(
        turns.filter((t) => t.speaker === "sam" || samLeft.test(t.text)).map((t) => `${t.id}: ${t.text}`),
        [],
      );
      const memories = await acme.store.listMemories(scope, { status: "any" });
      assert.deepEqual(
        memories.filter((m) => m.about === "sam" || samLeft.test(m.text)).map((m) => m.text),
        [],
      );
      // Kim's sessions are all there but the forgotten one, consolidated, each turn once.
      const kim = (await acme.store.listSessions(scope, { partner: "kim" })).map((x) => x.id).sort();
      const want = Array.from({ length: 15 }, (_, i) => `s${2 * i + 1}`).sort();
      assert.deepEqual(kim, want);
      assert.equal(turns.filter((t) => t.speaker === "kim").length, 15 * 2);
      assert.ok(memories.some((m) => /Lisbon|cello/.test(m.text)));
      assert.equal((await acme.waiting("ava")).length, 0, "nothing left half done");
    } finally {
      await s.close();
    }
  });
});

/** `memlane serve` over `db` on a free loopback port with a one-second ingest lease. */
async function serve(db: string): Promise<{ child: ChildProcess; url: string }> {
  const args = ["--import", "tsx", CLI, "--db", db, "--json", "serve", "--port", "0", "--ingest-lease", "1"];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"] });
  return { child, url: await servedUrl(child) };
}

describe("forget while no server is up reaches the upload it left", () => {
  it("kill -9 mid-upload, forget on the command line, restart: the resumed job skips what was forgotten", async () => {
    const db = join(dir, "killed.db");
    const keys = await openKeyStore(db);
    const { key } = await createApiKey(keys, { tenant: "acme" });
    await keys.close();
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const consolidated = () =>
      sqliteRows<{ n: number }>(db, "SELECT count(*) AS n FROM sessions WHERE status = 'consolidated'")[0]!.n;

    const first = await serve(db);
    const posted = await fetch(`${first.url}/v1/ingest`, {
      method: "POST",
      headers,
      body: JSON.stringify(upload(40)),
    });
    assert.equal(posted.status, 202);
    const { job } = (await posted.json()) as { job: { id: string } };
    for (let i = 0; i < 600 && consolidated() < 4; i++) await new Promise((r) => setTimeout(r, 50));
    const killed = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await killed;
    const jobRow = `SELECT state, transcripts FROM ingest_jobs WHERE tenant = 'acme' AND id = '${job.id}'`;
    assert.equal(
      sqliteRows<{ state: string }>(db, jobRow)[0]?.state,
      "running",
      "the kill interrupted the job",
    );
    assert.ok(consolidated() < 36, "most of the upload waits in the job's row");

    // The server is down: the command line forgets against the file.
    const cli = (...args: string[]) => runCli(["--db", db, "--tenant", "acme", ...args], { env });
    const bySam = await cli("forget", "--agent", "ava", "--about", "sam", "--yes", "--json");
    assert.equal(bySam.code, 0, bySam.stderr);
    const bySession = await cli("forget", "--agent", "ava", "--session", "s39", "--yes", "--json");
    assert.equal(bySession.code, 0, bySession.stderr);
    const [left] = sqliteRows<{ transcripts: string }>(db, jobRow);
    assert.ok(left?.transcripts, "the job still has the rest of the upload to store");
    assert.doesNotMatch(left!.transcripts, samLeft, "sam's words left the job's row");
    assert.doesNotMatch(left!.transcripts, /"s39"/, "so did s39");
    assert.match(left!.transcripts, /Lisbon/);

    const second = await serve(db);
    try {
      let shown: Record<string, unknown> = {};
      for (let i = 0; i < 600; i++) {
        shown = (await (await fetch(`${second.url}/v1/jobs/${job.id}`, { headers })).json()) as Record<
          string,
          unknown
        >;
        if (shown.state === "done" || shown.state === "failed") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(shown.state, "done", JSON.stringify(shown).slice(0, 2000));
    } finally {
      const exited = new Promise((resolve) => second.child.once("exit", resolve));
      second.child.kill("SIGTERM");
      await exited;
    }
    const turns = sqliteRows<{ speaker: string; text: string; session_id: string }>(
      db,
      "SELECT speaker, text, session_id FROM turns WHERE tenant = 'acme'",
    );
    assert.deepEqual(
      turns.filter((t) => t.speaker === "sam" || samLeft.test(t.text) || t.session_id === "s39"),
      [],
    );
    const memories = sqliteRows<{ about: string; text: string }>(
      db,
      "SELECT about, text FROM memories WHERE tenant = 'acme'",
    );
    assert.deepEqual(
      memories.filter((m) => m.about === "sam" || samLeft.test(m.text)),
      [],
    );
    const kim = sqliteRows<{ id: string; status: string }>(
      db,
      "SELECT id, status FROM sessions WHERE tenant = 'acme' AND partners LIKE '%kim%'",
    );
    assert.equal(kim.length, 19, "every kim session but s39");
    assert.ok(kim.every((x) => x.status === "consolidated"));
    assert.equal(turns.filter((t) => t.speaker === "kim").length, 19 * 2);
    assert.equal(sqliteRows<{ transcripts: null }>(db, jobRow)[0]?.transcripts, null);
  });
});

describe("forget reaches queued and failed work", () => {
  it("a consolidation queued behind another: forgetting its session or person brings nothing back", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    try {
      const talk = async (id: string, partner: string, text: string) => {
        const s = await mem.session({ agent: "ava", partner, id, at: day(Number(id.slice(1))) });
        await s.turn(partner, text);
        return s;
      };
      const a = await talk("s1", "kim", kimSays(1));
      const b = await talk("s2", "sam", samSays(2));
      const c = await talk("s3", "kim", kimSays(3));
      // Closed one after another: b's and c's consolidations wait behind a's.
      await Promise.all([a.close(), b.close(), c.close()]);
      await mem.forget({ agent: "ava", about: "sam" });
      await mem.forget({ agent: "ava", sessionId: "s3" });
      await mem.idle();
      const memories = await mem.memories("ava", { status: "any" });
      assert.deepEqual(
        memories.filter((m) => m.about === "sam" || samLeft.test(m.text) || m.sessionId === "s3"),
        [],
      );
      assert.ok(memories.some((m) => m.sessionId === "s1"));
      assert.deepEqual(await mem.failures("ava"), []);
      const retried = await mem.retry("ava", undefined, { open: true });
      assert.deepEqual(retried, { turns: [], jobs: [], steps: [] });
    } finally {
      await mem.close();
    }
  });
});

describe("forget by person names a person", () => {
  it("`forget --about it|i|the` erases nothing and is NOT_FOUND (exit 4), naming the people there", async () => {
    const db = join(dir, "words.db");
    const mem = await testMemlane({ strategy: "accumulate", store: db, tenant: "default" });
    await mem.ingest({
      agent: "ava",
      sessions: [
        {
          id: "c1",
          at: day(1),
          partner: "caroline",
          turns: [
            { speaker: "caroline", text: "I think it is the best thing I did: I adopted a dog." },
            { speaker: "ava", text: "It sounds like the right choice, I agree." },
          ],
        },
        {
          id: "c2",
          at: day(2),
          partner: "melanie",
          turns: [{ speaker: "melanie", text: "The painting I made is done, and it is blue." }],
        },
      ],
    });
    const before = {
      memories: await mem.memories("ava", { status: "any" }),
      turns: await mem.store.listTurns({ tenant: "default", agent: "ava" }),
    };
    assert.ok(before.memories.length > 0);
    for (const word of ["it", "i", "the", "It", "The", "-"]) {
      await assert.rejects(mem.forget({ agent: "ava", about: word }), (e: Error) => {
        assert.ok(e instanceof NotFoundError, `${word}: ${e.message}`);
        assert.match(e.message, /"caroline", "melanie"/);
        return true;
      });
    }
    await mem.close();
    for (const word of ["it", "i", "the", "-"]) {
      const r = await runCli(["--db", db, "forget", "--agent", "ava", "--about", word, "--yes"], { env });
      assert.equal(r.code, 4, `${word}: ${r.stderr}`);
      assert.match(r.stderr, /NOT_FOUND/);
      assert.match(r.stderr, /caroline.*melanie/);
    }
    const reopened = await testMemlane({ strategy: "accumulate", store: db, tenant: "default" });
    try {
      assert.deepEqual(await reopened.memories("ava", { status: "any" }), before.memories);
      assert.deepEqual(await reopened.store.listTurns({ tenant: "default", agent: "ava" }), before.turns);
    } finally {
      await reopened.close();
    }
  });
});

describe("forget: a retried failure brings nothing back", () => {
  it("a consolidation that failed, then a forget of one person, then retry: only the others' words are remembered", async () => {
    let broken = true;
    // A model that writes one statement per partner line of the transcript it is shown.
    const chat = new ScriptedChatModel((messages) => {
      if (broken) return "not json";
      const user = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      const lines = [...user.matchAll(/^\[(\d+)\] (\w+): (.*)$/gm)].filter((m) => m[2] !== "Ava");
      return JSON.stringify({
        statements: lines.map((m) => ({
          about: m[2]!.toLowerCase(),
          text: `${m[2]} said: ${m[3]}`,
          turns: [Number(m[1])],
        })),
      });
    });
    const mem = await testMemlane({ chat, retries: 0, strategy: "accumulate" });
    const s = await mem.session({ agent: "ava", partners: ["sam", "kim"], at: "2024-04-20T10:15" });
    await s.turn("sam", samSays(1));
    await s.turn("kim", kimSays(1));
    assert.equal((await (await s.close()).done)?.state, "failed");
    assert.ok((await mem.failures("ava")).some((f) => f.type === "CONSOLIDATE"));
    await mem.forget({ agent: "ava", about: "sam" });
    broken = false;
    await mem.retry("ava");
    await mem.idle();
    const texts = (await mem.memories("ava", { status: "any" })).map((m) => m.text).join("\n");
    assert.match(texts, /Lisbon/, "kim's words are remembered");
    assert.doesNotMatch(texts, /Bergen|Rex/, "nothing of sam's came back");
    for (const op of await mem.operations("ava"))
      assert.doesNotMatch(JSON.stringify([op.inputs, op.outputs]), /Bergen|Rex/);
    await mem.close();
  });
});
