/**
 * Everything memlane's job queue knows about pg-boss's own tables, in one place. The queue
 * otherwise uses pg-boss's public API (send, complete, fail, getQueue, createQueue,
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
 * - pg-boss's fetch takes jobs in `priority DESC, created_on, id` order among those with
 *   `state < 'active'` and `start_after < now()`, makes them active and sets `started_on`.
 *   memlane's workers fetch with a copy of that statement (`fetchNext`) that also skips a tenant
 *   holding its share of the workers; a job whose `start_after` lies in year 9999 (`PARKED`) is
 *   never fetched, and `priority` is read nowhere else.
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
  "priority",
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
  /** Its place in the fair order (the negated tag, see `unparkHead`); absent for archived jobs. */
  priority?: number;
  /** True while it waits behind an earlier job of its scope (its `start_after` is `PARKED`). */
  parked?: boolean;
}

/**
 * The `start_after` of a parked job: a time no fetch reaches, so pg-boss never hands the job out
 * until memlane makes it due (`unparkHead`). Jobs are sent parked and wait so while an earlier job
 * of their scope is unfinished; only the first unfinished job of each scope is ever due.
 */
export const PARKED = "9999-12-31T00:00:00.000Z";

/** Rows due some day, not parked; the same text in the indexes and the statements that use them. */
const NOT_PARKED = "start_after < '9999-01-01 00:00:00+00'";

/** The parts of a job's payload the statements read, as SQL expressions on an alias. */
const tenantOf = (alias: string) => `(${alias}.data->>'tenant')`;
const agentOf = (alias: string) => `(${alias}.data->>'agent')`;

/**
 * Indexes memlane adds to pg-boss's job table (partial, so each holds only the rows its reads
 * want): unfinished jobs in queue order; finished ones newest first; unfinished jobs of each
 * scope (tenant and agent) in queue order, which finds a scope's first job, a job's earlier
 * ones and a tenant's count; and the tags of the jobs that are not parked, over all tenants and
 * per tenant, which give a new tag (`unparkHead`).
 */
const QUEUE_INDEXES: [string, string][] = [
  ["memlane_job_unfinished", "(name, created_on, id) WHERE state < 'completed'"],
  ["memlane_job_finished", "(name, completed_on DESC) WHERE state >= 'completed'"],
  [
    "memlane_job_scope",
    "(name, (data->>'tenant'), (data->>'agent'), created_on, id) WHERE state < 'completed'",
  ],
  ["memlane_job_tag", `(name, priority) WHERE state < 'completed' AND ${NOT_PARKED}`],
  [
    "memlane_job_tenant_tag",
    `(name, (data->>'tenant'), priority) WHERE state < 'completed' AND ${NOT_PARKED}`,
  ],
  ["memlane_job_running", "(name, (data->>'tenant')) WHERE state = 'active'"],
];

/**
 * The application name a working process gives pg-boss's connections: its places (jobs it runs
 * at once) and its queue's schema, so a fetch can add up the places of every worker connected to
 * the queue (`fetchNext`). A random token tells processes apart across machines. Postgres keeps
 * 63 bytes of it; the schema comes last, so only the schema is ever cut (and compared cut).
 */
export function workerApplicationName(concurrency: number, schema: string): string {
  const token = Math.random().toString(16).slice(2, 10).padEnd(8, "0");
  return `${WORKER_APP}:${token}:${concurrency}:${schema}`.slice(0, 63);
}

const WORKER_APP = "memlane-queue-worker";

/**
 * How far tags may grow before maintenance shifts them back towards 0 (pg-boss's priority is a
 * 32-bit integer); tags grow by about one per round of service while the queue is never empty.
 */
export const TAG_REBASE_AT = 1_000_000_000;

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
   * Takes the next job as pg-boss's own fetch does (the waiting, due job with the highest
   * priority, then the one queued first; it becomes active, and a try is counted when it had
   * started before), skipping the jobs of a tenant that already runs `perTenant` jobs across
   * every worker. Without `perTenant`, a tenant runs at most all but one of the places the
   * working processes connected to this queue offer (`workerApplicationName`), so one tenant's
   * backlog never holds every worker and another tenant's job starts when a place frees. The
   * queue runs it under an advisory lock, one fetch at a time, so two workers never both take a
   * tenant's last place.
   */
  fetchNext(perTenant: number | null, applicationName: string): Statement {
    const job = `${this.schema}.job`;
    const schemaPart = applicationName.split(":").slice(3).join(":");
    return {
      text: `WITH places AS (
               SELECT COALESCE(sum(split_part(w.application_name, ':', 3)::int), 0) AS n
               FROM (SELECT DISTINCT application_name FROM pg_stat_activity
                     WHERE datname = current_database() AND application_name LIKE '${WORKER_APP}:%'
                       AND split_part(application_name, ':', 4) = $3) w),
             full_tenants AS (
               SELECT ${tenantOf("a")} AS tenant FROM ${job} a
               WHERE a.name = $1 AND a.state = 'active'
               GROUP BY 1
               HAVING count(*) >= COALESCE($2::int, GREATEST(1, (SELECT n FROM places) - 1))),
             next AS (
               SELECT j.id FROM ${job} j
               WHERE j.name = $1 AND j.state < 'active' AND j.start_after < now()
                 AND NOT EXISTS (SELECT 1 FROM full_tenants f WHERE f.tenant = ${tenantOf("j")})
               ORDER BY j.priority DESC, j.created_on, j.id
               LIMIT 1
               FOR UPDATE SKIP LOCKED)
             UPDATE ${job} j SET state = 'active', started_on = now(),
               retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
             FROM next WHERE j.name = $1 AND j.id = next.id
             RETURNING j.id, j.name, j.data, j.priority, j.state, j.retry_count AS "retryCount",
               j.created_on AS "createdOn", j.started_on AS "startedOn"`,
      values: [this.queue, perTenant, schemaPart],
    };
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
      text: `SELECT j.id, ${tenantOf("j")} AS tenant, ${agentOf("j")} AS agent FROM ${this.schema}.job j
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
   * that are still in the job table (archived ones are read with pg-boss's getJobById), in
   * queue order (each scope's order).
   */
  listJobs(awaited: string[]): Statement {
    const columns = `id, data, state, output, created_on, completed_on, priority, NOT (${NOT_PARKED}) AS parked`;
    const job = `${this.schema}.job`;
    return {
      text: `SELECT * FROM (
               (SELECT ${columns} FROM ${job} WHERE name = $1 AND state < 'completed')
               UNION
               (SELECT ${columns} FROM ${job} WHERE name = $1 AND state >= 'completed' ORDER BY completed_on DESC LIMIT ${RECENT_FINISHED})
               UNION
               (SELECT ${columns} FROM ${job} WHERE name = $1 AND id = ANY($2::uuid[]))
             ) listed ORDER BY created_on, id`,
      values: [this.queue, awaited],
    };
  }
  /**
   * A fetched job back to waiting behind the earlier job of its scope, not counted as a try (as
   * `putBack`), and parked: no fetch hands it out again until `unparkHead` finds it first in its
   * scope. Follow it with `unparkHead`, which mends a race with the earlier job finishing.
   */
  park(id: string): Statement {
    return {
      text: `UPDATE ${this.schema}.job SET state = 'created', started_on = NULL, start_after = $3
             WHERE name = $1 AND id = $2 AND state = 'active'`,
      values: [this.queue, id, PARKED],
    };
  }

  /**
   * Makes the first unfinished job of a scope due now when it is parked, and gives it its tag:
   * the largest of the tag served next (the smallest tag of the due jobs, or of all unparked
   * unfinished ones, or 0), one more than the largest tag its tenant has among unparked jobs,
   * and `atLeast` (one more than the tag of the scope's job that has just run, so a tenant does
   * not tie with its own last turn).
   * The priority is the negated tag, since pg-boss fetches the highest priority first. Only a
   * scope's first job ever holds a tag, so a tenant's tags count its turns across its agents,
   * and a tenant with nothing due gets the next tag served: tenants, and the agents of a tenant,
   * take turns (start-time fair queueing). Returns the id it made due, if any.
   */
  unparkHead(tenant: string, agent: string, atLeast: number | null = null): Statement {
    const job = `${this.schema}.job`;
    return {
      text: `WITH head AS (
               SELECT h.id FROM ${job} h
               WHERE h.name = $1 AND ${tenantOf("h")} = $2 AND ${agentOf("h")} = $3 AND h.state < 'completed'
               ORDER BY h.created_on, h.id LIMIT 1)
             UPDATE ${job} j SET start_after = now(), priority = -GREATEST(${this.nextTag("$2")}, $4::int)
             FROM head
             WHERE j.name = $1 AND j.id = head.id AND j.state < 'active' AND NOT (j.${NOT_PARKED})
             RETURNING j.id`,
      values: [this.queue, tenant, agent, atLeast],
    };
  }

  /**
   * Every parked job that is first in its scope, made due with a tag (as `unparkHead`): a
   * safety net for a process that stopped between finishing a job and making the next one due,
   * or a job pg-boss's own maintenance failed for good.
   */
  unparkAll(): Statement {
    const job = `${this.schema}.job`;
    return {
      text: `UPDATE ${job} j SET start_after = now(), priority = -(${this.nextTag(tenantOf("j"))})
             WHERE j.name = $1 AND j.state < 'active' AND NOT (j.${NOT_PARKED})
               AND NOT EXISTS (SELECT 1 FROM ${job} e
                               WHERE e.name = $1 AND ${tenantOf("e")} = ${tenantOf("j")} AND ${agentOf("e")} = ${agentOf("j")}
                                 AND e.state < 'completed' AND (e.created_on, e.id) < (j.created_on, j.id))
             RETURNING j.id`,
      values: [this.queue],
    };
  }

  /** The tag a job of `tenant` (an SQL expression) gets when it becomes due; see `unparkHead`. */
  private nextTag(tenant: string): string {
    const job = `${this.schema}.job`;
    return `GREATEST(
              COALESCE(
                (SELECT -max(v.priority) FROM ${job} v
                 WHERE v.name = $1 AND v.state < 'completed' AND v.${NOT_PARKED}
                   AND v.state < 'active' AND v.start_after <= now()),
                (SELECT -max(w.priority) FROM ${job} w
                 WHERE w.name = $1 AND w.state < 'completed' AND w.${NOT_PARKED}),
                0),
              (SELECT 1 - min(t.priority) FROM ${job} t
               WHERE t.name = $1 AND ${tenantOf("t")} = ${tenant} AND t.state < 'completed' AND t.${NOT_PARKED}))`;
  }

  /**
   * Shifts every unfinished job's tag down by the smallest one when that has passed `limit`, so
   * tags stay far from the integer's end however long the queue stays busy; their order is kept.
   */
  rebaseTags(limit: number): Statement {
    const job = `${this.schema}.job`;
    return {
      text: `WITH low AS (SELECT max(priority) AS p FROM ${job} WHERE name = $1 AND state < 'completed' AND ${NOT_PARKED})
             UPDATE ${job} j SET priority = j.priority - low.p FROM low
             WHERE j.name = $1 AND j.state < 'completed' AND low.p < -$2::int`,
      values: [this.queue, limit],
    };
  }

  /** How many jobs of a tenant are unfinished (waiting, parked, retrying or running). */
  pending(tenant: string): Statement {
    return {
      text: `SELECT count(*)::int AS n FROM ${this.schema}.job j
             WHERE j.name = $1 AND ${tenantOf("j")} = $2 AND j.state < 'completed'`,
      values: [this.queue, tenant],
    };
  }

  /** Which of the given sessions (tenant, agent and id at the same index) have an unfinished job. */
  unfinishedSessions(sessions: { tenant: string; agent: string; sessionId: string }[]): Statement {
    return {
      text: `SELECT DISTINCT k.tenant, k.agent, k.session AS "sessionId"
             FROM unnest($2::text[], $3::text[], $4::text[]) AS k(tenant, agent, session)
             JOIN ${this.schema}.job j ON j.name = $1 AND ${tenantOf("j")} = k.tenant AND ${agentOf("j")} = k.agent
               AND j.state < 'completed' AND j.data->>'sessionId' = k.session`,
      values: [
        this.queue,
        sessions.map((s) => s.tenant),
        sessions.map((s) => s.agent),
        sessions.map((s) => s.sessionId),
      ],
    };
  }

  /**
   * Moves job `id` in its scope's order to just before the first waiting job of the given later
   * sessions, so a session queued late (the sweep's) is consolidated before the agent's sessions
   * that came after it. Nothing moves when none of them waits, or the job is earlier already.
   */
  placeBefore(id: string, tenant: string, agent: string, laterSessions: string[]): Statement {
    const job = `${this.schema}.job`;
    return {
      text: `UPDATE ${job} o SET created_on = f.first - interval '1 millisecond'
             FROM (SELECT min(l.created_on) AS first FROM ${job} l
                   WHERE l.name = $1 AND ${tenantOf("l")} = $3 AND ${agentOf("l")} = $4
                     AND l.state < 'completed' AND l.state < 'active' AND l.data->>'sessionId' = ANY($5::text[])) f
             WHERE o.name = $1 AND o.id = $2 AND f.first < o.created_on`,
      values: [this.queue, id, tenant, agent, laterSessions],
    };
  }
}
