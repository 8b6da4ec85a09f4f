/**
 * The README's scale-out walkthrough, in process: two API services over one Postgres store that
 * only enqueue (as `serve --no-worker` does) and two worker engines, the demo conversation
 * replayed through the REST routes alternating between the services; the memories equal a
 * single-process ingest of the same file, and recall through either service finds them.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { createService, type Service } from "../../src/adapters/server/app.js";
import { silentLogger } from "../../src/engine/logger.js";
import type { Memlane } from "../../src/engine/memlane.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import type { KeyStore } from "../../src/store/key-store.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";

const skip = postgresSkipReason() ?? false;

interface Demo {
  agent: string;
  sessions: { id: string; at: string; partners: string[]; turns: { speaker: string; text: string }[] }[];
}
const demo = JSON.parse(
  readFileSync(new URL("../../data/demo-conversation.json", import.meta.url), "utf8"),
) as Demo;

describe("scale-out: the demo conversation through two API services and two workers", { skip }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });

  it("ends with the memories one process makes, found through either service", async () => {
    const url = (await cluster.createDatabase()) as `postgres://${string}`;
    const queue = { postgres: url, pollSeconds: 0.2 };
    const engine = (work: boolean) =>
      openMemlane({
        store: url,
        embedder: "hash",
        cognition: "offline",
        logger: silentLogger,
        queue: { ...queue, work },
      });
    const apis: Memlane[] = [await engine(false), await engine(false)];
    const workers: Memlane[] = [await engine(true), await engine(true)];
    const keys: KeyStore = await openKeyStore(url);
    const { key } = await createApiKey(keys, { tenant: "acme" });
    const services: Service[] = apis.map((mem) => createService({ mem, keys, logger: silentLogger }));
    let next = 0;
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await services[next++ % 2]!.app.request(path, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };

    for (const s of demo.sessions) {
      const made = await call("POST", "/v1/sessions", {
        agent: demo.agent,
        partners: s.partners,
        id: s.id,
        at: s.at,
      });
      assert.equal(made.status, 201);
      for (const t of s.turns)
        assert.equal((await call("POST", `/v1/agents/${demo.agent}/sessions/${s.id}/turns`, t)).status, 201);
      assert.equal((await call("POST", `/v1/agents/${demo.agent}/sessions/${s.id}/close`)).status, 202);
    }
    // The services see the jobs the workers run, wherever they were queued.
    for (let i = 0; ; i++) {
      const { jobs } = (await call("GET", "/v1/jobs")).body as {
        jobs: { sessionId: string; state: string }[];
      };
      if (jobs.length === demo.sessions.length && jobs.every((j) => j.state === "done")) break;
      assert.ok(i < 300, `the jobs finish: ${JSON.stringify(jobs)}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const alone = await openMemlane({
      store: ":memory:",
      embedder: "hash",
      cognition: "offline",
      tenant: "acme",
    });
    await alone.ingest(demo);
    const texts = async (m: Memlane) =>
      (await m.memories(demo.agent, { status: "any" }))
        .map((x) => `${x.sessionId} ${x.status} ${x.text}`)
        .sort();
    const expected = await texts(alone);
    assert.ok(expected.length > 5);
    assert.deepEqual(await texts(apis[0]!.tenant("acme")), expected);

    const { body } = await call("POST", "/v1/recall", {
      agent: demo.agent,
      query: "Where does Sam live now?",
      about: "sam",
      k: 3,
    });
    assert.ok(Array.isArray(body.hits), JSON.stringify(body));
    const hits = (body.hits as { text: string }[]).map((h) => h.text);
    const top = (
      await alone.recall({ agent: demo.agent, query: "Where does Sam live now?", about: "sam", k: 3 })
    ).hits.map((h) => h.text);
    assert.deepEqual(hits, top);

    await alone.close();
    for (const m of [...apis, ...workers]) await m.close();
    await keys.close();
  });
});
