/**
 * `memlane worker`: runs consolidation jobs from the Postgres job queue, for API replicas started
 * with `memlane serve --no-worker` (or any engine that enqueues there). Several workers may run
 * against one database, on one machine or many; each job goes to one of them at a time.
 */

import type { Command } from "commander";
import type { PostgresJobQueue, PostgresQueueOptions } from "../../adapters/postgres/postgres-queue.js";
import { InvalidInputError } from "../../core/errors.js";
import { loadFeature } from "../../core/optional-packages.js";
import type { PostgresSettings } from "../../store/postgres-settings.js";
import { io, untilStopped } from "../io.js";
import { configFrom, type GlobalOptions, wholeNumber } from "../options.js";
import { note, print } from "../output.js";

/** Queue settings both `worker` and `serve` take from the command line or the environment. */
export interface QueueFlags {
  jobTimeout?: string;
  jobRetries?: string;
  perTenant?: string;
}

/** The `--per-tenant` flag's help, the same on `worker` and `serve`. */
export const PER_TENANT_HELP =
  "most consolidation jobs one tenant runs at once (on Postgres, across every worker); default all but one of the places, so one tenant's backlog leaves room for the others (env MEMLANE_PER_TENANT)";

/** The `--per-tenant` flag or MEMLANE_PER_TENANT, when either is given. */
export function perTenantFrom(flag: string | undefined): number | undefined {
  const value = flag ?? io().env.MEMLANE_PER_TENANT;
  return value === undefined ? undefined : wholeNumber(value, "per-tenant", 1);
}

const isPostgres = (db: string) => /^postgres(ql)?:\/\//.test(db);

/**
 * The Postgres queue for a `--db postgres://…` (null for any other store): `work` says whether
 * this process runs jobs too. pg-boss loads only for a Postgres store.
 */
export async function postgresQueueFor(
  db: string,
  flags: QueueFlags & { concurrency?: string },
  work: boolean,
  postgres?: PostgresSettings,
): Promise<PostgresJobQueue | null> {
  if (!isPostgres(db)) return null;
  const { env } = io();
  const concurrency = wholeNumber(flags.concurrency ?? "1", "concurrency", 1);
  const perTenant = perTenantFrom(flags.perTenant);
  // pg-boss's pool is the queue's share of this process's connection budget (loaded with the
  // command, so the command line starts without it).
  const { postgresSettings, splitConnections } = await import("../../store/postgres-settings.js");
  const split = splitConnections(postgresSettings(postgres).maxConnections, { work, concurrency });
  const options: PostgresQueueOptions = {
    url: db,
    work,
    concurrency,
    ...(perTenant === undefined ? {} : { perTenant }),
    maxConnections: split.queue,
    jobTimeoutSeconds: wholeNumber(flags.jobTimeout ?? env.MEMLANE_JOB_TIMEOUT ?? "900", "job-timeout", 1),
    retryLimit: wholeNumber(flags.jobRetries ?? env.MEMLANE_JOB_RETRIES ?? "2", "job-retries", 0),
  };
  // Tests and the benchmark look for lost jobs and new work more often than a deployment needs to.
  if (env.MEMLANE_QUEUE_POLL) options.pollSeconds = Number(env.MEMLANE_QUEUE_POLL);
  if (env.MEMLANE_QUEUE_MAINTENANCE) options.maintenanceSeconds = Number(env.MEMLANE_QUEUE_MAINTENANCE);
  if (env.MEMLANE_JOB_RETRY_DELAY) options.retryDelaySeconds = Number(env.MEMLANE_JOB_RETRY_DELAY);
  const { PostgresJobQueue } = await loadFeature(
    "postgres",
    () => import("../../adapters/postgres/postgres-queue.js"),
  );
  return new PostgresJobQueue(options);
}

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "run consolidation jobs from the Postgres queue (--db postgres://…), for API replicas started with serve --no-worker",
    )
    .option("--concurrency <n>", "jobs this worker runs at once", "1")
    .option("--per-tenant <n>", PER_TENANT_HELP)
    .option(
      "--job-timeout <seconds>",
      "a job this worker runs for longer is taken for lost and run again (env MEMLANE_JOB_TIMEOUT; default 900)",
    )
    .option(
      "--job-retries <n>",
      "tries after the first for a job this worker runs that fails, with growing delays (env MEMLANE_JOB_RETRIES; default 2)",
    )
    .addHelpText(
      "after",
      "\nThe worker that runs a job sets its timeout and retries, whatever the process that queued it\n" +
        "(serve --no-worker) was started with.\n" +
        "SIGINT/SIGTERM: stops taking jobs, finishes the ones running, then exits 0. A worker killed\n" +
        "outright leaves its job active; another worker sees its connection gone and runs the job again\n" +
        "within seconds (--job-timeout is the last resort), and the store refuses a second\n" +
        "consolidation of a session, so nothing is written twice.",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & QueueFlags & { concurrency: string }>();
      const config = configFrom(opts);
      const db = typeof config.store === "string" ? config.store : "";
      const queue = await postgresQueueFor(db, opts, true, config.postgres);
      if (!queue)
        throw new InvalidInputError(
          "memlane worker needs a Postgres store (--db postgres://…): with SQLite, serve runs consolidation itself",
          { field: "db" },
        );
      const json = Boolean(opts.json);
      queue.onRun(({ job, ms, attempt }) => {
        const line = {
          job: job.id,
          tenant: job.tenant,
          agent: job.agent,
          session: job.sessionId,
          state: job.state,
          attempt,
          ms,
          ...(job.error ? { error: job.error } : {}),
        };
        if (json) print(JSON.stringify(line));
        else
          note(
            `job ${job.id.slice(0, 8)} ${job.tenant}/${job.agent}/${job.sessionId}: ${
              job.state === "done" ? "done" : job.state === "failed" ? "failed" : "failed, will retry"
            } in ${ms} ms (try ${attempt})${job.error ? `: ${job.error}` : ""}`,
          );
      });
      const [{ withoutPassword }, { openMemlane }] = await Promise.all([
        import("../../store/store-spec.js"),
        import("../../engine/open-memlane.js"),
      ]);
      const mem = await openMemlane({ ...config, queue });
      // The schema is checked (and an older one migrated) before any job is taken: a worker older
      // than the database refuses to start, as serve does, rather than fail every job it takes.
      try {
        await mem.store.open?.();
      } catch (error) {
        await queue.close().catch(() => undefined);
        await mem.close().catch(() => undefined);
        throw error;
      }
      await queue.start();
      const started = {
        db: withoutPassword(db),
        concurrency: Number(opts.concurrency),
        cognition: mem.cognition.name,
      };
      if (json) print(JSON.stringify({ worker: started }));
      else
        note(
          `memlane worker on ${started.db}: ${started.concurrency} job(s) at once, cognition ${started.cognition}; waiting for jobs`,
        );
      await untilStopped();
      note("stopping: finishing the jobs in flight");
      // Stop taking jobs first, so the engine's shutdown waits for the running ones only.
      await queue.close();
      await mem.close();
      note("worker stopped");
    });
}
