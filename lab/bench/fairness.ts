/**
 * `npm run bench serve --parts fairness`: does one tenant's heavy work make another wait? A real
 * `memlane serve` process (SQLite, hash embedder, carecall) serves two tenants. While tenant A
 * does one heavy thing at a time, tenant B keeps asking `/health` (one request every 20 ms, in a
 * row), recalls every 200 ms, and 0.5 s in closes a one-turn session, whose consolidation job it
 * follows (beside A's upload, B uploads a one-session transcript instead). Per scenario the table gives how long A's work took, B's `/health` p50/p99/max, B's
 * recall p50/p95, and how long B's job waited before it started and before it was done.
 *
 * A's scenarios: `turn` (a session with one 1,000,000-character turn, closed and consolidated),
 * `backlog` (60 sessions of 3 turns of 10,000 characters over ten agents, closed one after another),
 * `upload` (200 sessions of 6 turns through /v1/ingest), `query` (five 100,000-character
 * recalls in a scope of `--forget-turns` turns), `forget` (everything about a person in a scope of `--forget-turns` turns, filled
 * before the server starts), `model` (LLM cognition on a loopback model that takes
 * `--model-delay` seconds over each of A's answers and answers B at once).
 *
 *   --scenarios turn,upload,query,forget,model  --forget-turns 20000  --model-delay 15
 *   --store postgres   a Postgres server of its own (Debian's binaries), two API replicas with
 *                      --no-worker and two `memlane worker` processes, instead of SQLite
 *   --cli PATH   the memlane command line to serve with (another checkout's src/cli/main.ts),
 *                to measure a tree before a change against the one after it
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { resolveStore } from "../../src/engine/config.js";
import type { ChatMessage } from "../../src/models/chat-model.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import { type PostgresCluster, startPostgresCluster } from "../../src/testing/postgres-cluster.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { flag } from "./args.js";
import { fillLiving, sessionUpload } from "./live.js";
import { percentile } from "./recall.js";
import { listening } from "./serve.js";

const THIS_CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
/** A word only tenant A's turns hold: the loopback model is slow for prompts that carry it. */
const A_MARK = "Zorblax";

interface Row {
  scenario: string;
  took: number;
  health: number[];
  recalls: number[];
  jobStart: number | null;
  jobDone: number | null;
  errors: string[];
}

export async function benchFairness(args: string[]): Promise<void> {
  const scenarios = flag(args, "scenarios", "turn,backlog,upload,query,forget,model").split(",");
  const forgetTurns = Number(flag(args, "forget-turns", "20000"));
  const modelDelay = Number(flag(args, "model-delay", "15"));
  const cli = flag(args, "cli", THIS_CLI);
  const onPostgres = flag(args, "store", "sqlite") === "postgres";
  const cluster = onPostgres ? await startPostgresCluster() : null;
  console.log(
    `# npm run bench serve --parts fairness (node ${process.version}, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(
        " ",
      )}; serving with ${cli}; ${onPostgres ? "a Postgres server, two API replicas and two workers" : "SQLite, one server"})\n`,
  );
  console.log(
    "| A's work | took | B /health p50 / p99 / max | B recall p50 / p95 | B's one-turn job: started after / done after | errors |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  try {
    for (const scenario of scenarios)
      printRow(await runScenario(scenario, cli, { forgetTurns, modelDelay, cluster }));
  } finally {
    await cluster?.stop();
  }
}

function printRow(row: Row): void {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const sorted = [...row.health].sort((a, b) => a - b);
  const recalls = [...row.recalls].sort((a, b) => a - b);
  console.log(
    `| ${row.scenario} | ${(row.took / 1000).toFixed(1)} s | ${ms(percentile(sorted, 0.5))} / ${ms(percentile(sorted, 0.99))} / ${ms(sorted.at(-1) ?? 0)} | ${recalls.length ? `${ms(percentile(recalls, 0.5))} / ${ms(percentile(recalls, 0.95))}` : "-"} | ${row.jobStart === null ? "never" : `${(row.jobStart / 1000).toFixed(1)} s`} / ${row.jobDone === null ? "never" : `${(row.jobDone / 1000).toFixed(1)} s`} | ${row.errors.slice(0, 3).join("; ") || "none"} |`,
  );
}

async function runScenario(
  scenario: string,
  cli: string,
  o: { forgetTurns: number; modelDelay: number; cluster: PostgresCluster | null },
): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-fair-"));
  // SQLite: one file and one server. Postgres: a fresh database, two API replicas that only
  // enqueue (A and B's requests go to the first; B closes through the second) and two workers.
  const db = o.cluster ? await o.cluster.createDatabase() : join(dir, "serve.db");
  const keys = await openKeyStore(db);
  const a = (await createApiKey(keys, { tenant: "a", name: "bench" })).key;
  const b = (await createApiKey(keys, { tenant: "b", name: "bench" })).key;
  await keys.close();
  if (scenario === "forget" || scenario === "query") {
    const store = await resolveStore(db);
    await fillLiving(store, { tenant: "a", agent: "big" }, o.forgetTurns, new HashEmbedder(), "carecall");
    await store.close();
  }
  const model = scenario === "model" ? await slowModel(o.modelDelay * 1000) : null;
  const modelFlags = model
    ? ["--cognition", "llm", "--chat-url", model.url, "--chat-model", "scripted", "--model-timeout", "600000"]
    : [];
  const memlane = (command: string[]) =>
    spawn(
      process.execPath,
      ["--import", "tsx", cli, "--db", db, "--embedder", "hash", ...modelFlags, ...command],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
  const servers = o.cluster
    ? [
        memlane(["--json", "serve", "--port", "0", "--no-worker"]),
        memlane(["--json", "serve", "--port", "0", "--no-worker"]),
      ]
    : [memlane(["--json", "serve", "--port", "0"])];
  const workers = o.cluster ? [memlane(["worker"]), memlane(["worker"])] : [];
  const errors: string[] = [];
  try {
    const [url, closeUrl] = await Promise.all(servers.map(listening)).then((u) => [u[0]!, u.at(-1)!]);
    const call = async (
      key: string,
      method: string,
      path: string,
      body?: unknown,
      tries = 3,
    ): Promise<Record<string, unknown>> => {
      try {
        const res = await fetch(`${path.endsWith("/close") ? closeUrl : url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await res.json()) as Record<string, unknown>;
        if (res.status >= 400) errors.push(`${method} ${path.slice(0, 40)} ${res.status}`);
        return json;
      } catch (error) {
        // A server that stalls past its keep-alive drops sockets: said, and the request sent again.
        errors.push(`${method} ${path.slice(0, 40)} ${((error as Error).cause as Error)?.message ?? error}`);
        if (tries <= 1) throw error;
        return call(key, method, path, body, tries - 1);
      }
    };
    const waitJob = async (key: string, id: string, until: (state: string) => boolean) => {
      for (;;) {
        const job = (await call(key, "GET", `/v1/jobs/${encodeURIComponent(id)}`)) as { state?: string };
        if (!job.state || until(job.state)) return job.state;
        await sleep(50);
      }
    };
    // B has a little memory to recall, and its scope is loaded before A starts.
    const seed = (await call(b, "POST", "/v1/sessions", { agent: "bob", partner: "sam" })) as { id: string };
    await call(b, "POST", `/v1/agents/bob/sessions/${seed.id}/turns`, {
      speaker: "sam",
      text: "I adopted a beagle called Biscuit.",
    });
    const seedJob = (await call(b, "POST", `/v1/agents/bob/sessions/${seed.id}/close`)) as {
      job: { id: string };
    };
    await waitJob(b, seedJob.job.id, (s) => s === "done" || s === "failed");
    await call(b, "POST", "/v1/recall", { agent: "bob", about: "sam", query: "What pet does Sam have?" });

    let busy = true;
    const health: number[] = [];
    const recalls: number[] = [];
    const healthLoop = (async () => {
      while (busy) {
        const t = performance.now();
        // A reset counts with its time: a server that stalls past its keep-alive drops sockets.
        await fetch(`${url}/health`).then(
          (res) => res.arrayBuffer(),
          (error: Error) => errors.push(`GET /health ${(error.cause as Error)?.message ?? error.message}`),
        );
        health.push(performance.now() - t);
        await sleep(20);
      }
    })();
    const recallLoop = (async () => {
      while (busy) {
        const t = performance.now();
        await call(b, "POST", "/v1/recall", { agent: "bob", about: "sam", query: "What pet does Sam have?" });
        recalls.push(performance.now() - t);
        await sleep(200);
      }
    })();
    let jobStart: number | null = null;
    let jobDone: number | null = null;
    const bJob = (async () => {
      await sleep(scenario === "backlog" ? 2000 : 500);
      const said = { speaker: "sam", text: "I started learning the violin this week." };
      let closedAt = performance.now();
      let job: { id: string } | undefined;
      if (scenario === "upload") {
        // Beside A's upload, B's one-session upload is the job that must not wait behind it.
        ({ job } = (await call(b, "POST", "/v1/ingest", {
          agent: "bob",
          sessions: [{ id: "b-upload", at: "2025-01-01T10:00:00Z", partner: "sam", turns: [said] }],
        })) as { job?: { id: string } });
      } else {
        const s = (await call(b, "POST", "/v1/sessions", { agent: "bob", partner: "sam" })) as { id: string };
        await call(b, "POST", `/v1/agents/bob/sessions/${s.id}/turns`, said);
        closedAt = performance.now();
        ({ job } = (await call(b, "POST", `/v1/agents/bob/sessions/${s.id}/close`)) as {
          job?: { id: string };
        });
      }
      if (!job) return;
      await waitJob(b, job.id, (state) => state !== "queued");
      jobStart = performance.now() - closedAt;
      await waitJob(b, job.id, (state) => state === "done" || state === "failed");
      jobDone = performance.now() - closedAt;
    })();
    const started = performance.now();
    await heavy(scenario, (m, p, body) => call(a, m, p, body), waitJob.bind(null, a), o.forgetTurns);
    const took = performance.now() - started;
    await bJob;
    busy = false;
    await Promise.all([healthLoop, recallLoop]);
    await Promise.all(
      [...servers, ...workers].map((child) => {
        const exit = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        return exit;
      }),
    );
    return { scenario, took, health, recalls, jobStart, jobDone, errors };
  } finally {
    for (const child of [...servers, ...workers]) if (child.exitCode === null) child.kill("SIGKILL");
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tenant A's heavy work for one scenario; resolves when it is all done. */
async function heavy(
  scenario: string,
  call: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>,
  waitJob: (id: string, until: (state: string) => boolean) => Promise<string | undefined>,
  forgetTurns: number,
): Promise<void> {
  const ended = (s: string) => s === "done" || s === "failed";
  const sentence = `I moved to Bristol last spring with ${A_MARK} and adopted a beagle who loves the park near the river. `;
  if (scenario === "turn" || scenario === "model") {
    const text =
      scenario === "turn"
        ? sentence.repeat(Math.ceil(1_000_000 / sentence.length)).slice(0, 1_000_000)
        : sentence;
    const s = (await call("POST", "/v1/sessions", { agent: "ava", partner: "sam" })) as { id: string };
    await call("POST", `/v1/agents/ava/sessions/${s.id}/turns`, { speaker: "sam", text });
    const { job } = (await call("POST", `/v1/agents/ava/sessions/${s.id}/close`)) as { job: { id: string } };
    const state = await waitJob(job.id, ended);
    if (state !== "done") throw new Error(`A's consolidation ended ${state}`);
  } else if (scenario === "upload") {
    const upload = sessionUpload("ava", 200, (i, j) =>
      j % 2 ? "That sounds lovely, tell me more." : `${sentence}Day ${i}, line ${j}.`,
    );
    const { job } = (await call("POST", "/v1/ingest", upload)) as { job: { id: string } };
    const state = await waitJob(job.id, ended);
    if (state !== "done") throw new Error(`A's upload ended ${state}`);
  } else if (scenario === "backlog") {
    // Many sessions of A's closed at once, over ten agents: a line B's one job must not wait behind.
    const jobs: string[] = [];
    for (let i = 0; i < 60; i++) {
      const agent = `ava${i % 10}`;
      const s = (await call("POST", "/v1/sessions", { agent, partner: "sam" })) as { id: string };
      for (let t = 0; t < 3; t++)
        await call("POST", `/v1/agents/${agent}/sessions/${s.id}/turns`, {
          speaker: "sam",
          text: `${sentence.repeat(100)}Line ${t}.`,
        });
      const { job } = (await call("POST", `/v1/agents/${agent}/sessions/${s.id}/close`)) as {
        job: { id: string };
      };
      jobs.push(job.id);
    }
    for (const id of jobs) await waitJob(id, ended);
  } else if (scenario === "query") {
    const query = sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000);
    for (let i = 0; i < 5; i++) await call("POST", "/v1/recall", { agent: "big", about: "sam", query });
  } else if (scenario === "forget") {
    if (forgetTurns <= 0) return;
    await call("POST", "/v1/forget", { agent: "big", about: "sam" });
  } else throw new Error(`Unknown scenario "${scenario}": turn, backlog, upload, query, forget or model`);
}

/**
 * An OpenAI-compatible server on loopback that plays every thinking step with the scripted model
 * double; an answer to a prompt that carries A's mark is sent `delayMs` after its headers, as a
 * slow model drip-feeds a long answer.
 */
async function slowModel(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const scripted = scriptedLlm();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
      messages?: ChatMessage[];
      response_format?: { json_schema?: { name: string; schema: Record<string, unknown> } };
    };
    const messages = body.messages ?? [];
    const schema = body.response_format?.json_schema;
    const answer = await scripted.generate(messages, {
      ...(schema ? { jsonSchema: schema as never, task: schema.name } : {}),
    });
    res.writeHead(200, { "content-type": "application/json" });
    if (messages.some((m) => m.content.includes(A_MARK))) {
      res.write(" ");
      await sleep(delayMs);
    }
    res.end(
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 0,
        model: "scripted",
        choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
