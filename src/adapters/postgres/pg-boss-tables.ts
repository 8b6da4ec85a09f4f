/**
 * Everything memlane's job queue knows about pg-boss's own tables, in one place. The queue
 * otherwise uses pg-boss's public API (send, fetch, complete, fail, getQueue, createQueue,
 * getJobById, schemaVersion); the statements here are the ones that API cannot express, each
 * named by what it does. pg-boss may change its tables in any release, so the queue starts only
 * on the versions this module was written for (`checkPgBossPackage`, `checkPgBossSchema`) and
 * refuses with an UnsupportedPgBossError otherwise, rather than running against tables it does
 * not know.
 *
 * What the statements rely on (pg-boss 10, schema version 24):
 * - `<schema>.job`, partitioned by queue name, with the columns in `JOB_COLUMNS`. `data` is the
 *   payload memlane sends (`tenant`, `agent`, `sessionId`).
 * - The state enum's order: created < retry < active < completed < cancelled < failed, so
 *   `state < 'completed'` is "unfinished" and `state >= 'completed'` is "finished".
 * - pg-boss's fetch counts a try (retry_count + 1) only when `started_on` is set, so clearing
 *   it puts a job back to waiting without counting a try.
 * - While a job is active nothing in pg-boss reads or writes its `output`; complete and fail
 *   overwrite it. The worker that runs a job names itself there until then.
 * - `<schema>.version` holds the schema version in its `version` column.
 *
 * When a new pg-boss release is to be supported: compare its `plans.js` (in its source: the job
 * table, the fetch, fail and complete statements) with the above, adjust the statements here, run the
 * queue tests against it and widen `SUPPORTED_PGBOSS`.
 */
import { createRequire } from "node:module";
import { UnsupportedError } from "../../core/errors.js";

/** The pg-boss releases and database schema this module was written for and tested against. */
export const SUPPORTED_PGBOSS = {
  /** Installed package versions: from `minimum` up to, not including, `below`. */
  minimum: "10.1.6",
  below: "10.5.0",
  /** The schema version those releases install (pg-boss's `version.json`). */
  schema: 24,
  /** The releases the queue tests ran against. */
  tested: ["10.1.6", "10.2.0", "10.3.3", "10.4.0", "10.4.2"],
} as const;

/** The columns of pg-boss's job table that the statements below read or write. */
export const JOB_COLUMNS = [
  "id",
  "name",
  "data",
  "state",
  "output",
  "created_on",
  "started_on",
  "start_after",
  "completed_on",
  "expire_in",
  "retry_limit",
  "retry_delay",
] as const;

/** What the supported versions say, for error messages. */
export function supportedPgBoss(): string {
  const s = SUPPORTED_PGBOSS;
  return `pg-boss >=${s.minimum} <${s.below} (database schema version ${s.schema})`;
}

/**
 * pg-boss in a version this module was not written for: the installed package, or the schema
 * its tables are at in the database (another process with a newer pg-boss may have migrated
 * them). Nothing was run against those tables.
 */
export class UnsupportedPgBossError extends UnsupportedError {
  constructor(
    message: string,
    details: { package?: string; schemaVersion?: number | null; schema?: string },
  ) {
    super(`${message}; the Postgres job queue supports ${supportedPgBoss()}`, {
      ...details,
      supported: {
        minimum: SUPPORTED_PGBOSS.minimum,
        below: SUPPORTED_PGBOSS.below,
        schemaVersion: SUPPORTED_PGBOSS.schema,
      },
    });
  }
}

/** The pg-boss package this process loaded: its version, and the schema version it installs. */
export interface PgBossPackage {
  version: string;
  schema: number;
}

/** Reads the installed pg-boss's package.json and version.json (it has no exports map). */
export function installedPgBoss(): PgBossPackage {
  const require = createRequire(import.meta.url);
  const { version } = require("pg-boss/package.json") as { version: string };
  const { schema } = require("pg-boss/version.json") as { schema: number };
  return { version, schema };
}

/** Compares two x.y.z versions (a pre-release suffix is ignored): negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[-+]/)[0]!
      .split(".")
      .map((n) => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Refuses a pg-boss package outside the supported versions, or one that installs another schema. */
export function checkPgBossPackage(installed: PgBossPackage): void {
  const s = SUPPORTED_PGBOSS;
  const inRange =
    compareVersions(installed.version, s.minimum) >= 0 && compareVersions(installed.version, s.below) < 0;
  if (!inRange || installed.schema !== s.schema)
    throw new UnsupportedPgBossError(
      `The installed pg-boss is ${installed.version} (schema version ${installed.schema})`,
      {
        package: installed.version,
      },
    );
}

/**
 * Refuses the database's pg-boss schema version. Before pg-boss starts (`beforeStart`), a
 * missing schema or an older version is allowed, since pg-boss creates or migrates it to the
 * supported one; a newer one is refused, or pg-boss's maintenance would run against it. After
 * it started, the version must be the supported one.
 */
export function checkPgBossSchema(found: number | null, schema: string, beforeStart: boolean): void {
  const supported = SUPPORTED_PGBOSS.schema;
  const ok = beforeStart ? found === null || found <= supported : found === supported;
  if (!ok)
    throw new UnsupportedPgBossError(
      `pg-boss's tables in schema "${schema}" are at schema version ${found ?? "none"}`,
      { schema, schemaVersion: found },
    );
}

/** One parameterized statement, for `pg`'s `query(text, values)` or pg-boss's `executeSql`. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** The state of a pg-boss job, in the enum's order. */
export type PgBossState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/** A job as `listJobs` returns it. */
export interface JobRow {
  id: string;
  data: { tenant: string; agent: string; sessionId: string };
  state: PgBossState;
  output: { message?: string; value?: { message?: string } } | null;
  created_on: Date;
  completed_on: Date | null;
}

/**
 * Indexes memlane adds to pg-boss's job table (partial, so each holds only the rows its reads
 * want): unfinished jobs in queue order, and finished ones newest first.
 */
const QUEUE_INDEXES: [string, string][] = [
  ["memlane_job_unfinished", "(name, created_on, id) WHERE state < 'completed'"],
  ["memlane_job_finished", "(name, completed_on DESC) WHERE state >= 'completed'"],
];

/** How many finished jobs `listJobs` returns. */
export const RECENT_FINISHED = 200;

/**
 * The statements on one pg-boss schema and queue. The schema name is put into the text (pg-boss
 * has already checked it is a plain identifier); everything else is a parameter.
 */
export class PgBossTables {
  constructor(
    readonly schema: string,
    readonly queue: string,
  ) {}

  /** Whether pg-boss's version table exists (it does once pg-boss has created its tables). */
  versionTableExists(): Statement {
    return { text: "SELECT to_regclass($1) IS NOT NULL AS installed", values: [`${this.schema}.version`] };
  }

  /** The schema version pg-boss recorded (what its own `schemaVersion()` reads, before it starts). */
  readSchemaVersion(): Statement {
    return { text: `SELECT version FROM ${this.schema}.version`, values: [] };
  }

  /** How many of memlane's indexes exist on the job table (read without a lock). */
  countIndexes(): Statement {
    return {
      text: "SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2)",
      values: [this.schema, QUEUE_INDEXES.map(([name]) => name)],
    };
  }

  /** The number `countIndexes` answers when all are there. */
  get indexCount(): number {
    return QUEUE_INDEXES.length;
  }

  /**
   * memlane's own indexes on the job table: its reads (the poll, the sweep for lost jobs, the
   * check for an earlier unfinished job of a scope) each find their rows by index, so a poll
   * costs the same however many finished jobs the queue retains.
   */
  createIndexes(): Statement[] {
    return QUEUE_INDEXES.map(([name, definition]) => ({
      text: `CREATE INDEX IF NOT EXISTS ${name} ON ${this.schema}.job ${definition}`,
      values: [],
    }));
  }

  /**
   * Names the worker that runs a job (the backend pid of the connection this runs on, which
   * `findLostJobs` checks for) and puts the worker's timeout and retries on it. Run on the job's
   * lock connection, right after the fetch.
   */
  claim(
    id: string,
    policy: { timeoutSeconds: number; retryLimit: number; retryDelaySeconds: number },
  ): Statement {
    return {
      text: `UPDATE ${this.schema}.job SET output = jsonb_build_object('worker', pg_backend_pid()),
               expire_in = $3 * interval '1 second', retry_limit = $4, retry_delay = $5
             WHERE name = $1 AND id = $2 AND state = 'active'`,
      values: [this.queue, id, policy.timeoutSeconds, policy.retryLimit, policy.retryDelaySeconds],
    };
  }

  /**
   * Active jobs whose worker is gone: the lock connection the job names is no longer connected,
   * or none was named within `ownerlessSeconds` of the fetch. Jobs in `runningHere` are skipped.
   */
  findLostJobs(runningHere: string[], ownerlessSeconds: number): Statement {
    return {
      text: `SELECT j.id FROM ${this.schema}.job j
             WHERE j.name = $1 AND j.state = 'active' AND NOT (j.id = ANY($2::uuid[]))
               AND CASE WHEN j.output ? 'worker'
                 THEN NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                                  WHERE a.pid = (j.output->>'worker')::integer AND a.application_name LIKE 'memlane-queue-locks:%')
                 ELSE j.started_on < now() - $3 * interval '1 second' END`,
      values: [this.queue, runningHere, ownerlessSeconds],
    };
  }

  /** Jobs that `fail` put in retry, due at once instead of after their backoff. */
  retryNow(ids: string[]): Statement {
    return {
      text: `UPDATE ${this.schema}.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`,
      values: [this.queue, ids],
    };
  }

  /** Whether a job of the same tenant and agent, queued before job `id`, has not finished. */
  earlierUnfinished(id: string, tenant: string, agent: string): Statement {
    return {
      text: `SELECT 1 FROM ${this.schema}.job j, ${this.schema}.job me
             WHERE me.name = $1 AND me.id = $2 AND j.name = $1 AND j.id <> me.id
               AND j.data->>'tenant' = $3 AND j.data->>'agent' = $4 AND j.state < 'completed'
               AND (j.created_on, j.id) < (me.created_on, me.id)
             LIMIT 1`,
      values: [this.queue, id, tenant, agent],
    };
  }

  /**
   * An active job back to waiting, due after `delaySeconds`, not counted as a try: the next
   * fetch counts one only when `started_on` is set, so it is cleared.
   */
  putBack(id: string, delaySeconds: number): Statement {
    return {
      text: `UPDATE ${this.schema}.job SET state = 'created', started_on = NULL,
               start_after = now() + $3 * interval '1 second'
             WHERE name = $1 AND id = $2 AND state = 'active'`,
      values: [this.queue, id, delaySeconds],
    };
  }

  /**
   * Every unfinished job, the `RECENT_FINISHED` latest finished ones and the jobs `awaited`
   * that are still in the job table (archived ones are read with pg-boss's getJobById).
   */
  listJobs(awaited: string[]): Statement {
    const columns = "id, data, state, output, created_on, completed_on";
    const job = `${this.schema}.job`;
    return {
      text: `(SELECT ${columns} FROM ${job} WHERE name = $1 AND state < 'completed')
             UNION
             (SELECT ${columns} FROM ${job} WHERE name = $1 AND state >= 'completed' ORDER BY completed_on DESC LIMIT ${RECENT_FINISHED})
             UNION
             (SELECT ${columns} FROM ${job} WHERE name = $1 AND id = ANY($2::uuid[]))`,
      values: [this.queue, awaited],
    };
  }
}
