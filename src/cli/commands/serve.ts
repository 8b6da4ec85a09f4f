/**
 * `memlane serve`: the REST API (and its OpenAPI document) over the store, keyed per tenant.
 * The server (hono), the stores and the Postgres queue load when the command runs; it stops on
 * SIGINT, SIGTERM or the run's abort signal (io.ts).
 */

import type { Command } from "commander";
import { DEFAULT_MAX_BODY_BYTES } from "../../adapters/server/limits.js";
import { InvalidInputError, UnsupportedError } from "../../core/errors.js";
import { loadFeature } from "../../core/optional-packages.js";
import { formatReplicaShare, parseReplicaShare, type ReplicaShare } from "../../core/replica-share.js";
import { io, untilStopped } from "../io.js";
import { configFrom, type GlobalOptions } from "../options.js";
import { note, printJson } from "../output.js";
import { PER_TENANT_HELP, perTenantFrom, postgresQueueFor, type QueueFlags } from "./worker.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "serve the REST API over the store: /v1 routes need an API key (memlane keys create), /openapi.json describes them",
    )
    .option("--port <port>", "port to listen on (0: any free port)", "8787")
    .option(
      "--host <host>",
      "address to bind; anything but loopback is reachable from other machines",
      "127.0.0.1",
    )
    .option(
      "--max-body <bytes>",
      "largest request body in bytes (larger: 413)",
      String(DEFAULT_MAX_BODY_BYTES),
    )
    .option(
      "--no-worker",
      "only enqueue consolidation in the Postgres queue (--db postgres://…); memlane worker processes run it",
    )
    .option(
      "--job-timeout <seconds>",
      "Postgres queue: a job this process runs for longer is run again (default 900; with --no-worker, the workers' own setting applies)",
    )
    .option(
      "--job-retries <n>",
      "Postgres queue: tries after the first for a job this process runs that fails (default 2; with --no-worker, the workers' setting applies)",
    )
    .option(
      "--replica <index/count>",
      "this replica's share of the scopes behind a load balancer that routes by Memlane-Scope, e.g. 1/2: the indexes of other scopes leave memory first (env MEMLANE_REPLICA)",
    )
    .option(
      "--concurrency <n>",
      "consolidation jobs this process runs at once, served in turn across tenants; one tenant holds at most all but one of them (env MEMLANE_CONCURRENCY)",
      "2",
    )
    .option("--per-tenant <n>", PER_TENANT_HELP)
    .option(
      "--max-pending-jobs <n>",
      "consolidation jobs one tenant may have waiting or running; past it a close answers 429 with Retry-After (env MEMLANE_MAX_PENDING_JOBS)",
      "1000",
    )
    .option(
      "--ingest-concurrency <n>",
      "uploads this server runs at once, each of a different tenant (one tenant's run in turn)",
      "2",
    )
    .option(
      "--max-pending-uploads <n>",
      "uploads one tenant may have queued or running here; past it an upload answers 429 with Retry-After",
      "10",
    )
    .option(
      "--ingest-lease <seconds>",
      "an ingest job whose server has not renewed it for this long is taken over (a killed server's uploads)",
      "30",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions &
          QueueFlags & {
            port: string;
            host: string;
            maxBody: string;
            worker: boolean;
            ingestLease: string;
            replica?: string;
            concurrency: string;
            maxPendingJobs: string;
            ingestConcurrency: string;
            maxPendingUploads: string;
          }
      >();
      const port = whole(opts.port, "port", 0, 65535);
      const maxBodyBytes = whole(opts.maxBody, "max-body", 1, Number.MAX_SAFE_INTEGER);
      const ingestLeaseMs = whole(opts.ingestLease, "ingest-lease", 1, 86_400) * 1000;
      const { env } = io();
      // A flag left at its default gives way to the environment, as --db does to MEMLANE_DB.
      const given = (name: string, flag: string) =>
        cmd.getOptionValueSource(name) === "cli" ? flag : (env[`MEMLANE_${snake(name)}`] ?? flag);
      const concurrency = whole(given("concurrency", opts.concurrency), "concurrency", 1, 1000);
      const maxPendingJobs = whole(
        given("maxPendingJobs", opts.maxPendingJobs),
        "max-pending-jobs",
        1,
        Number.MAX_SAFE_INTEGER,
      );
      const ingestConcurrency = whole(opts.ingestConcurrency, "ingest-concurrency", 1, 1000);
      const maxPendingUploads = whole(opts.maxPendingUploads, "max-pending-uploads", 1, 1_000_000);
      const perTenant = perTenantFrom(opts.perTenant);
      const path = storePath(opts);
      const replica = replicaFrom(opts.replica, env.MEMLANE_REPLICA);
      // With a Postgres store, consolidation goes through the Postgres queue, run here unless
      // --no-worker leaves it to `memlane worker` processes.
      const config = configFrom(opts);
      const queue = await postgresQueueFor(
        path,
        { ...opts, concurrency: String(concurrency) },
        opts.worker,
        config.postgres,
      );
      if (!opts.worker && !queue)
        throw new InvalidInputError(
          "--no-worker needs a Postgres store (--db postgres://…) for memlane worker to read",
          {
            field: "worker",
          },
        );
      const [
        { withoutPassword },
        { createService },
        { resumeInterrupted },
        { isLoopback, startServer },
        { openMemlane },
        { openIngestJobStore },
        { openKeyStore },
      ] = await loadFeature("server", () =>
        Promise.all([
          import("../../store/store-spec.js"),
          import("../../adapters/server/app.js"),
          import("../../adapters/server/resume.js"),
          import("../../adapters/server/server.js"),
          import("../../engine/open-memlane.js"),
          import("../../store/open-ingest-job-store.js"),
          import("../../store/open-key-store.js"),
        ]),
      );
      const mem = await openMemlane({
        ...config,
        queue: queue ?? { concurrency, ...(perTenant === undefined ? {} : { perTenant }) },
        maxPendingJobs,
        ...(replica ? { replica } : {}),
      });
      // The schema is checked (an older one migrated, a newer one refused) before the queue
      // starts: a server that cannot use the database takes no job and serves no request.
      try {
        await mem.store.open?.();
      } catch (error) {
        await queue?.close().catch(() => undefined);
        await mem.close().catch(() => undefined);
        throw error;
      }
      // Know which jobs Postgres holds before looking for sessions left without one.
      await queue?.start();
      // Keys and upload jobs share the store's pool (same database and timeouts): one budget.
      const keys = await openKeyStore(path, config.postgres);
      const ingestJobs = await openIngestJobStore(path, config.postgres);
      const service = createService({
        mem,
        keys,
        ingestJobs,
        ingestLeaseMs,
        maxBodyBytes,
        ingestConcurrency,
        maxPendingUploads,
      });
      // Uploads a killed server acknowledged but did not finish are taken over once their lease
      // runs out (at once when it has): now, before any new upload is queued, and later.
      const resumedIngest = await service.resume().then(
        (jobs) => jobs.length,
        (error) => {
          note(`resuming interrupted ingest jobs failed: ${(error as Error).message}`);
          return 0;
        },
      );
      // The tagger, WordNet and the encoder each load synchronously on first use (0.1-0.2 s
      // each): load them now, before any request, so no request holds every other caller for it.
      await mem.warmUp();
      const server = await startServer(service, { port, host: opts.host });
      const working = (await keys.list()).filter((k) => k.revokedAt === null).length;
      const share = replica ? formatReplicaShare(replica) : null;
      if (opts.json)
        printJson({
          url: server.url,
          db: withoutPassword(path),
          keys: working,
          maxBodyBytes,
          replica: share,
        });
      else {
        note(
          `memlane serving ${withoutPassword(path)} at ${server.url} (OpenAPI: ${server.url}/openapi.json, inspector: ${server.url}/inspect/)`,
        );
        if (working === 0) note("no working API key yet: memlane keys create --tenant <tenant>");
      }
      if (share) note(`replica ${share}: keeps warm the scopes whose Memlane-Scope hashes here`);
      if (!isLoopback(opts.host))
        note(`bound to ${opts.host}: reachable from other machines; put TLS in front`);
      if (resumedIngest > 0) note(`took over ${resumedIngest} interrupted ingest job(s)`);
      if (opts.tenant !== undefined)
        note("--tenant is ignored by serve: each request's API key decides its tenant");
      if (queue)
        note(
          queue.works
            ? "consolidation: Postgres queue, run here and by any memlane worker"
            : "consolidation: Postgres queue, run by memlane worker processes (--no-worker)",
        );
      // Sessions a killed server acknowledged closing but never consolidated are finished now.
      const tenants = [...new Set((await keys.list()).map((k) => k.tenant))];
      const resuming = resumeInterrupted(mem, tenants).then(
        (done) => {
          if (done.length > 0) note(`resumed ${done.length} interrupted consolidation(s)`);
        },
        (error) => note(`resuming interrupted consolidations failed: ${(error as Error).message}`),
      );
      await untilStopped();
      note("stopping: finishing requests, ingest and consolidation in flight");
      await server.close();
      // An enqueue-only server does not wait for workers to run what it resumed: it is queued.
      if (!queue || queue.works) await resuming;
      await service.close();
      await mem.close();
      await keys.close();
      await ingestJobs.close();
    });
}

/**
 * The replica's share from `--replica`, else MEMLANE_REPLICA ("1/2"), or null when neither is
 * given (a lone server, or replicas whose load balancer's choice they cannot compute).
 * @throws {InvalidInputError} a share that is not `index/count` with 1 <= index <= count
 */
export function replicaFrom(flag: string | undefined, env: string | undefined): ReplicaShare | null {
  if (flag !== undefined) return parseReplicaShare(flag, "--replica");
  if (env !== undefined && env.trim() !== "") return parseReplicaShare(env, "MEMLANE_REPLICA");
  return null;
}

/** The store the global options name: a SQLite file or a Postgres URL (keys live beside the memories). */
export function storePath(opts: GlobalOptions): string {
  const store = configFrom(opts).store;
  if (typeof store !== "string") throw new UnsupportedError("API keys need a SQLite store file");
  return store.startsWith("sqlite:") ? store.slice("sqlite:".length) : store;
}

function whole(value: string, field: string, least: number, most: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < least || n > most)
    throw new InvalidInputError(
      `--${field} must be a whole number from ${least} to ${most}, not "${value}"`,
      {
        field,
      },
    );
  return n;
}

/** An option's name as its environment variable spells it: maxPendingJobs, MAX_PENDING_JOBS. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}
