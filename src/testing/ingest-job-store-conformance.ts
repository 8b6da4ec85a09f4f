/**
 * The IngestJobStore conformance suite: every store of upload jobs must pass it (SQLite,
 * Postgres, PGlite, the in-process default, yours). The cases: a job kept with its transcripts
 * and shown to its tenant only, each change of state recorded, finished jobs pruned beyond a
 * bound, a job whose heartbeat stopped handed to exactly one other server, and, where the store
 * can be opened again, an unfinished job still held.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConflictError } from "../core/errors.js";
import type { IngestJobStore, PendingIngestJob } from "../store/ingest-job-store.js";

export interface IngestJobStoreSubject {
  store: IngestJobStore;
  /** A new store over the same database (the one before is closed first); absent in memory. */
  reopen?: () => Promise<IngestJobStore>;
  /** The raw transcripts column of a job, to see that a finished job dropped it. */
  rawTranscripts?: (tenant: string, id: string) => Promise<unknown>;
  cleanup?: () => Promise<void> | void;
}

const transcript = (agent: string, text: string) => ({
  agent,
  sessions: [
    { id: "s1", partners: ["sam"], at: "2026-01-01T00:00:00.000Z", turns: [{ speaker: "sam", text }] },
  ],
});

/** A queued job of `tenant` with one small transcript (text with quotes, accents and a NUL). */
export function job(
  tenant: string,
  id: string,
  queuedAt: string,
  fields: Partial<PendingIngestJob> = {},
): PendingIngestJob {
  return {
    tenant,
    id,
    state: "queued",
    error: null,
    queuedAt,
    startedAt: null,
    finishedAt: null,
    reports: null,
    owner: "server-a",
    heartbeatAt: queuedAt,
    transcripts: [transcript("ava", `I live in Oslo (${id}), "quoted" and ünïcode \u0000 too.`)],
    ...fields,
  };
}

/** A time on the suite's clock, `minute` minutes past ten. */
export const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
/** Later than every time the cases use: every unfinished job is stale before it. */
const late = at(59);

/** Registers the suite's cases (node:test) under `name`; `open` makes a fresh, empty store. */
export function runIngestJobStoreConformance(name: string, open: () => Promise<IngestJobStoreSubject>): void {
  describe(`ingest job store: ${name}`, () => {
    it("keeps a job with its transcripts, shows it to its tenant only, lists oldest first", async () => {
      const s = await open();
      try {
        const first = job("acme", "j1", at(1));
        await s.store.add(first);
        await s.store.add(job("acme", "j2", at(2)));
        await s.store.add(job("globex", "j1", at(3)));
        const { transcripts: _t, ...record } = first;
        assert.deepEqual(await s.store.get("acme", "j1"), record);
        assert.equal(await s.store.get("initech", "j1"), null);
        assert.equal(await s.store.get("acme", "j3"), null);
        assert.deepEqual(
          (await s.store.list("acme")).map((j) => j.id),
          ["j1", "j2"],
        );
        assert.deepEqual(
          (await s.store.list("globex")).map((j) => [j.tenant, j.id]),
          [["globex", "j1"]],
        );
        assert.deepEqual(
          (await s.store.stale(late)).map((j) => [j.tenant, j.id]),
          [
            ["acme", "j1"],
            ["acme", "j2"],
            ["globex", "j1"],
          ],
        );
        const claimed = await s.store.claim("acme", "j1", "server-a", at(0), at(5));
        assert.deepEqual(
          claimed,
          { ...first, heartbeatAt: at(5) },
          "the transcripts come back as they went in",
        );
        await assert.rejects(s.store.add(job("acme", "j1", at(9))), ConflictError);
      } finally {
        await s.store.close();
        await s.cleanup?.();
      }
    });

    it("records each change of state; a finished job drops its transcripts and is no longer unfinished", async () => {
      const s = await open();
      try {
        await s.store.add(job("acme", "ok", at(1)));
        await s.store.add(job("acme", "bad", at(2)));
        assert.equal(
          await s.store.update("acme", "ok", "server-a", { state: "running", startedAt: at(3) }),
          true,
        );
        assert.equal(
          await s.store.update("globex", "ok", "server-a", { state: "done" }),
          false,
          "another tenant's id",
        );
        assert.equal(
          await s.store.update("acme", "ok", "server-b", { state: "done" }),
          false,
          "not its owner",
        );
        let ok = await s.store.get("acme", "ok");
        assert.equal(ok?.state, "running");
        assert.equal(ok?.startedAt, at(3));
        assert.equal(ok?.finishedAt, null);
        const reports = [{ agent: "ava", sessions: 1, ingested: 1, failures: [] }];
        await s.store.update("acme", "ok", "server-a", { state: "done", reports, finishedAt: at(4) });
        await s.store.update("acme", "bad", "server-a", {
          state: "failed",
          error: "CONFLICT: no",
          finishedAt: at(5),
        });
        ok = await s.store.get("acme", "ok");
        assert.deepEqual(ok, {
          tenant: "acme",
          id: "ok",
          state: "done",
          error: null,
          queuedAt: at(1),
          startedAt: at(3),
          finishedAt: at(4),
          reports,
          owner: "server-a",
          heartbeatAt: at(1),
        });
        const bad = await s.store.get("acme", "bad");
        assert.equal(bad?.state, "failed");
        assert.equal(bad?.error, "CONFLICT: no");
        assert.deepEqual(await s.store.stale(late), []);
        assert.equal(
          await s.store.claim("acme", "ok", "server-b", late, late),
          null,
          "a finished job is no one's to take",
        );
        if (s.rawTranscripts) {
          assert.equal(await s.rawTranscripts("acme", "ok"), null);
          assert.equal(await s.rawTranscripts("acme", "bad"), null);
        }
      } finally {
        await s.store.close();
        await s.cleanup?.();
      }
    });

    it("lists a tenant's most recent jobs, and prunes only finished jobs beyond the bound", async () => {
      const s = await open();
      try {
        for (let i = 1; i <= 5; i++) await s.store.add(job("acme", `j${i}`, at(i)));
        await s.store.add(job("globex", "g1", at(0)));
        for (const id of ["j1", "j3", "j4", "j5"])
          await s.store.update("acme", id, "server-a", { state: "done", finishedAt: at(30) });
        assert.deepEqual(
          (await s.store.list("acme", 2)).map((j) => j.id),
          ["j4", "j5"],
        );
        // Keep 2: j4 and j5 are the most recent; j3 and j1 are finished and go; j2 still waits.
        assert.equal(await s.store.prune("acme", 2), 2);
        assert.deepEqual(
          (await s.store.list("acme")).map((j) => j.id),
          ["j2", "j4", "j5"],
        );
        assert.deepEqual(
          (await s.store.list("globex")).map((j) => j.id),
          ["g1"],
          "another tenant's jobs are untouched",
        );
        assert.equal(await s.store.prune("acme", 2), 0);
      } finally {
        await s.store.close();
        await s.cleanup?.();
      }
    });

    it("hands a job whose heartbeat stopped to one other server, and its old owner can no longer record", async () => {
      const s = await open();
      try {
        await s.store.add(job("acme", "j1", at(1)));
        await s.store.add(job("acme", "j2", at(2), { owner: "server-b" }));
        assert.equal(await s.store.heartbeat("server-a", at(10)), 1, "only its own unfinished jobs");
        assert.deepEqual(
          (await s.store.stale(at(5))).map((j) => [j.id, j.owner]),
          [["j2", "server-b"]],
          "j1 was renewed at 10",
        );
        assert.equal(
          await s.store.claim("acme", "j1", "server-c", at(5), at(11)),
          null,
          "its owner is alive",
        );
        const taken = await Promise.all([
          s.store.claim("acme", "j2", "server-c", at(5), at(11)),
          s.store.claim("acme", "j2", "server-d", at(5), at(11)),
        ]);
        assert.equal(taken.filter((j) => j !== null).length, 1, "one of two claims wins");
        const winner = taken.find((j) => j !== null)!.owner;
        assert.equal((await s.store.get("acme", "j2"))?.owner, winner);
        assert.equal(
          await s.store.update("acme", "j2", "server-b", { state: "failed", error: "late" }),
          false,
        );
        assert.equal(
          await s.store.update("acme", "j2", winner, { state: "running", startedAt: at(12) }),
          true,
        );
        assert.equal((await s.store.get("acme", "j2"))?.state, "running");
        assert.equal(await s.store.heartbeat("server-b", at(20)), 0, "it holds nothing any more");
      } finally {
        await s.store.close();
        await s.cleanup?.();
      }
    });

    it("applies a forget to the transcripts of the tenant's unfinished jobs only", async () => {
      const s = await open();
      try {
        const upload = (agent: string) => ({
          agent,
          sessions: [
            {
              id: "s1",
              partners: ["sam"],
              at: at(0),
              turns: [
                { speaker: agent, text: "Hello there." },
                { speaker: "sam", text: "My PIN is 4321.", at: at(1) },
                { speaker: agent, text: "Noted, 4321." },
              ],
            },
            {
              id: "s2",
              partners: ["kim", "sam"],
              at: at(2),
              turns: [
                { speaker: "kim", text: "I moved to Oslo." },
                { speaker: "sam", text: "I hate Oslo." },
                { speaker: "kim", text: "Oslo is fine." },
              ],
            },
            { id: "s3", partners: ["kim"], at: at(3), turns: [{ speaker: "kim", text: "Hi." }] },
          ],
        });
        await s.store.add(job("acme", "j1", at(1), { transcripts: [upload("ava"), upload("bo")] }));
        await s.store.add(job("acme", "j2", at(2), { transcripts: [upload("ava")] }));
        await s.store.add(job("globex", "j1", at(3), { transcripts: [upload("ava")] }));
        await s.store.update("acme", "j2", "server-a", { state: "done", finishedAt: at(4) });

        assert.equal(await s.store.forgetPending("acme", "ava", { about: "sam" }), 1, "j1 only");
        assert.equal(await s.store.forgetPending("acme", "ava", { about: "it" }), 0, "no one called it");
        assert.equal(await s.store.forgetPending("acme", "ava", { sessionId: "s3" }), 1);
        const [ava, bo] = (await s.store.claim("acme", "j1", "server-a", late, late))!
          .transcripts as ReturnType<typeof upload>[];
        assert.deepEqual(ava, {
          agent: "ava",
          sessions: [
            // The agent's greeting answered no one; its reply to sam goes with sam's words.
            { ...upload("ava").sessions[0], turns: [{ id: "s1:1", speaker: "ava", text: "Hello there." }] },
            {
              ...upload("ava").sessions[1],
              turns: [
                { id: "s2:1", speaker: "kim", text: "I moved to Oslo." },
                { id: "s2:3", speaker: "kim", text: "Oslo is fine." },
              ],
            },
          ],
        });
        assert.deepEqual(bo, upload("bo"), "another agent's transcript is untouched");
        const other = await s.store.claim("globex", "j1", "server-a", late, late);
        assert.deepEqual(other?.transcripts, [upload("ava")], "another tenant's job is untouched");
        if (s.rawTranscripts) assert.equal(await s.rawTranscripts("acme", "j2"), null);
      } finally {
        await s.store.close();
        await s.cleanup?.();
      }
    });

    it("still holds an unfinished job and its transcripts when opened again", async (t) => {
      const s = await open();
      if (!s.reopen) {
        await s.store.close();
        await s.cleanup?.();
        t.skip("kept in this process only");
        return;
      }
      let store = s.store;
      try {
        const running = job("acme", "r1", at(1), { state: "running", startedAt: at(2) });
        await store.add(running);
        await store.close();
        store = await s.reopen();
        assert.deepEqual(await store.claim("acme", "r1", "server-b", late, late), {
          ...running,
          owner: "server-b",
          heartbeatAt: late,
        });
      } finally {
        await store.close();
        await s.cleanup?.();
      }
    });
  });
}
