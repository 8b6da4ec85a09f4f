/**
 * A JobQueue (v1) in Postgres, on pg-boss: consolidation jobs outlive the process that queued
 * them, and any number of processes run them. API replicas enqueue (`work: false`, what
 * `memlane serve --no-worker` does); workers (`memlane worker`) fetch with `SELECT … FOR UPDATE
 * SKIP LOCKED`, so each job goes to one of them at a time.
 *
 * What it relies on, and why it is safe:
 * - A failed consolidation (the handler says false: the model was down, its answer never fitted)
 *   or a handler that threw is failed in pg-boss and tried again after a growing, jittered delay,
 *   up to `retryLimit` more times; every try's failure is recorded by the engine as a failed
 *   CONSOLIDATE operation, so the failures view shows it, and a later success hides it.
 * - A job whose worker died (SIGKILL, a lost machine) stays active until `jobTimeoutSeconds`
 *   have passed; pg-boss's maintenance (run by one of the processes per interval) then puts it
 *   back to be tried again.
 * - Jobs of one scope (tenant and agent) run one at a time and in the order they were queued,
 *   as on the in-process queue: a consolidation reads and supersedes the memories earlier ones
 *   wrote, so two at once would trip over each other and a later session could land before an
 *   earlier one. A worker holds a Postgres advisory lock on the scope while it runs a job, and a
 *   job fetched while an earlier one of its scope is unfinished (queued, waiting to retry, or
 *   running elsewhere) is put back to wait, without counting as a try. A dead worker's job
 *   therefore holds its scope's later jobs back until it has timed out and run again.
 * - A job can therefore run twice (a worker killed after its commit, a retry racing a worker, an
 *   expired job still running). The store makes that harmless: a consolidated session refuses
 *   another consolidation inside the write transaction (WriteBatch.sessionStatus), so memories
 *   are written once.
 * - pg-boss's tables are read and written directly only where its API has no way to say what the
 *   queue needs (the lost-job sweep, putting a job back without counting a try, the ordering
 *   check, the worker's claim on a job, the jobs list, memlane's indexes). Those statements live
 *   in pg-boss-tables.ts, and the queue refuses to start on a pg-boss package or database schema
 *   that module was not written for.
 */
import pg from "pg";
import PgBoss from "pg-boss";
import { isMemlaneError, UnsupportedError } from "../../core/errors.js";
import type {
  ClosedSession,
  ClosedSessions,
  JobHandler,
  JobQueue,
  JobRequest,
} from "../../engine/consolidation/job-queue.js";
import type { PostgresQueueOptions } from "../../engine/consolidation/queue-options.js";
import type { JobInfo, JobState } from "../../engine/events.js";
import { consoleLogger, type Logger } from "../../engine/logger.js";
import { POSTGRES_DEFAULTS } from "../../store/postgres-settings.js";
import { queuePositions } from "./fair-order.js";
import {
  checkPgBossPackage,
  checkPgBossSchema,
  installedPgBoss,
  type JobRow,
  PARKED,
  type PgBossPackage,
  PgBossTables,
  type Statement,
  TAG_REBASE_AT,
  workerApplicationName,
} from "./pg-boss-tables.js";
import { storeError } from "./pg-errors.js";
import { guardClients, type HeldConnection, holdConnection, withoutPassword } from "./pg-pool-client.js";

/** What a worker reads of a job it fetched (`PgBossTables.fetchNext`). */
type FetchedJob = Pick<
  PgBoss.JobWithMetadata<JobRequest>,
  "id" | "name" | "data" | "priority" | "state" | "retryCount" | "createdOn" | "startedOn"
>;

/** The pg-boss queue consolidation jobs go to. */
export const CONSOLIDATE_QUEUE = "memlane-consolidate";

/** A session advisory lock on a text key (a scope, or queue setup), and its release. */
const LOCK_SQL = "SELECT pg_advisory_lock(hashtextextended($1, 0))";
const UNLOCK_SQL = "SELECT pg_advisory_unlock(hashtextextended($1, 0))";

export type { PostgresQueueOptions };

/** One job this process ran, for a worker's progress lines. */
export interface JobRun {
  job: JobInfo;
  /** How long this try took. */
  ms: number;
  /** Which try this was (1 for the first). */
  attempt: number;
}

/**
 * The Postgres job queue. `jobs()` lists what the database holds (every waiting or running job
 * and the latest finished ones, whoever queued them), refreshed every `pollSeconds`; `done`
 * settles when the job has finished for good, wherever it ran.
 * @example new PostgresJobQueue({ url: "postgres://localhost/memlane", work: false })
 */
export class PostgresJobQueue implements JobQueue {
  readonly specificationVersion = "v1" as const;
  /** Workers in any process run these jobs: uploads consolidate through the queue too. */
  readonly shared = true;
  private readonly boss: PgBoss;
  /** The statements on pg-boss's tables that its API cannot express. */
  private readonly tables: PgBossTables;
  private readonly options: Required<Omit<PostgresQueueOptions, "logger" | "perTenant">> & {
    perTenant: number | null;
  };
  /** The name this process's queue connections carry (`workerApplicationName` when it works). */
  private readonly applicationName: string;
  private readonly logger: Logger;
  private handler: JobHandler | null = null;
  private onChange: (job: JobInfo) => void = () => undefined;
  /** Where the sweep finds closed sessions (the engine's store), when it can. */
  private closedSessions: ClosedSessions | null = null;
  /** The maintenance pass running in this process, if any. */
  private maintaining: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  /** What the database said at the last look, by id. */
  private known = new Map<string, JobInfo>();
  /** Where each waiting job stood in the line at the last look (1 runs next). */
  private positions = new Map<string, number>();
  /** Jobs queued here whose end someone may await. */
  private readonly waiters = new Map<
    string,
    { resolve: (job: JobInfo) => void; promise: Promise<JobInfo> }
  >();
  /** Sends and handlers in flight in this process. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly runListeners = new Set<(run: JobRun) => void>();
  private loops: Promise<void>[] = [];
  private stopping = false;
  /** Idle worker loops waiting for their next look; a local enqueue wakes them. */
  private readonly sleepers = new Set<() => void>();
  private poller: NodeJS.Timeout | null = null;
  /** Connections that hold the scope locks of the jobs running here. */
  private readonly locks: pg.Pool;
  /** Closed sessions the last sweep found without a job (keys): lost if the next finds them so. */
  private suspects = new Set<string>();
  /** Ids of the jobs this process is running now (never taken over by its own sweep). */
  private readonly runningHere = new Set<string>();
  private polling: Promise<void> | null = null;

  constructor(options: PostgresQueueOptions) {
    if (!/^postgres(ql)?:\/\//.test(options.url))
      throw new UnsupportedError(`The Postgres job queue needs a postgres:// URL, not "${options.url}"`);
    this.options = {
      url: options.url,
      work: options.work ?? true,
      concurrency: Math.max(1, options.concurrency ?? 1),
      jobTimeoutSeconds: options.jobTimeoutSeconds ?? 900,
      retryLimit: options.retryLimit ?? 2,
      retryDelaySeconds: options.retryDelaySeconds ?? 10,
      pollSeconds: options.pollSeconds ?? 1,
      maintenanceSeconds: options.maintenanceSeconds ?? 30,
      schema: options.schema ?? "memlane_jobs",
      maxConnections: options.maxConnections ?? 4,
      perTenant: options.perTenant ?? null,
    };
    if (
      this.options.perTenant !== null &&
      !(Number.isInteger(this.options.perTenant) && this.options.perTenant >= 1)
    )
      throw new RangeError(`perTenant must be a whole number of at least 1, not ${this.options.perTenant}`);
    // A working process names its places on its connections, so every worker's fetch can add up
    // the places there are and keep one tenant to its share of them.
    this.applicationName = this.options.work
      ? workerApplicationName(this.options.concurrency, this.options.schema)
      : "memlane-queue";
    this.logger = options.logger ?? consoleLogger;
    this.tables = new PgBossTables(this.options.schema, CONSOLIDATE_QUEUE);
    // pg-boss passes options it does not know on to its pg pool, whose settings these two are.
    const bossOptions: PgBoss.ConstructorOptions & { statement_timeout: number; lock_timeout: number } = {
      connectionString: this.options.url,
      schema: this.options.schema,
      max: this.options.maxConnections,
      application_name: this.applicationName,
      // pg-boss hands these to its pg pool: a statement of the queue's own that hangs on a lock
      // held elsewhere fails as the store's do, instead of holding the worker. Its fetch skips
      // locked rows, so it never waits here. The scope locks' pool has none: a worker waits
      // there for as long as another runs a job of that scope.
      statement_timeout: POSTGRES_DEFAULTS.statementTimeoutMs,
      lock_timeout: POSTGRES_DEFAULTS.lockTimeoutMs,
      // Maintenance fails jobs past their expiry so they are tried again; no cron, no monitor.
      supervise: true,
      maintenanceIntervalSeconds: this.options.maintenanceSeconds,
      schedule: false,
    };
    this.boss = new PgBoss(bossOptions);
    this.boss.on("error", (error) => this.logger.error(`job queue: ${error.message}`, { error }));
    // pg-boss emits this in the one process that ran its maintenance this interval: memlane's
    // own pass runs there too, so one process per interval does it.
    this.boss.on("maintenance", () => void this.maintain());
    this.locks = guardClients(
      new pg.Pool({
        connectionString: this.options.url,
        max: this.options.work ? this.options.concurrency : 1,
        // A server that does not answer fails the try (it is tried again), rather than hanging it.
        connectionTimeoutMillis: 10_000,
        // The pid tells an operator (and the multi-process test) which process holds a scope.
        application_name: `memlane-queue-locks:${process.pid}`,
      }),
    );
    this.locks.on("error", (error) => this.logger.warn(`job queue lock connection: ${error.message}`));
  }

  /** Whether this process runs jobs (false: it only enqueues). */
  get works(): boolean {
    return this.options.work;
  }

  process(handler: JobHandler, onChange: (job: JobInfo) => void, closed?: ClosedSessions): void {
    this.handler = handler;
    this.onChange = onChange;
    this.closedSessions = closed ?? null;
    // Start at once so a worker begins fetching without waiting for an enqueue.
    this.start().catch((error) => {
      const said = `job queue could not start: ${(error as Error).message}`;
      // A typed error says all there is; anything else keeps its stack for the operator.
      if (isMemlaneError(error)) this.logger.error(said);
      else this.logger.error(said, { error });
    });
  }

  /**
   * Connects, creates pg-boss's tables and the queue when missing, and starts the loops. Refuses
   * (UnsupportedPgBossError) a pg-boss package or database schema pg-boss-tables.ts was not
   * written for, before pg-boss touches the database.
   */
  start(): Promise<void> {
    this.starting ??= (async () => {
      try {
        checkPgBossPackage(this.pgBossPackage());
        checkPgBossSchema(await this.databaseSchemaVersion(), this.options.schema, true);
        await this.boss.start();
        // Another process may have migrated the tables meanwhile; pg-boss's own answer, now.
        checkPgBossSchema(Number(await this.boss.schemaVersion()), this.options.schema, false);
        await this.ensureQueue();
        await this.refresh();
      } catch (error) {
        // A database that cannot be reached is StoreUnavailableError (exit 6), naming where.
        throw storeError(error, withoutPassword(this.options.url));
      }
      this.poller = setInterval(() => void this.poll(), this.options.pollSeconds * 1000);
      this.poller.unref();
      if (this.options.work)
        for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.workLoop());
    })();
    return this.starting;
  }

  /** The pg-boss package this process runs (a test stands in another version). */
  protected pgBossPackage(): PgBossPackage {
    return installedPgBoss();
  }

  /** The schema version of pg-boss's tables in the database, or null before pg-boss created them. */
  private async databaseSchemaVersion(): Promise<number | null> {
    const run = (statement: Statement) => this.locks.query(statement.text, statement.values);
    const { rows } = await run(this.tables.versionTableExists());
    if (!rows[0]?.installed) return null;
    const version = await run(this.tables.readSchemaVersion());
    return version.rows.length ? Number(version.rows[0].version) : null;
  }

  /**
   * Creates the queue once across processes. pg-boss's `createQueue` inserts the queue row and
   * creates its partition in one statement; two processes starting together deadlock on it
   * (seen in CI: Postgres 40P01), so setup is serialized by a session advisory lock.
   */
  private async ensureQueue(): Promise<void> {
    if ((await this.boss.getQueue(CONSOLIDATE_QUEUE)) && (await this.indexed())) return;
    const setup = await holdConnection(this.locks);
    const key = `memlane-queue-setup:${this.options.schema}`;
    let broken: Error | undefined;
    try {
      await setup.client.query(LOCK_SQL, [key]);
      if (!(await this.boss.getQueue(CONSOLIDATE_QUEUE))) await this.boss.createQueue(CONSOLIDATE_QUEUE);
      // Made once, by the first process (pg-boss has no way to add an index).
      for (const statement of this.tables.createIndexes())
        await setup.client.query(statement.text, statement.values);
    } finally {
      // Unlocking a lock never taken is a no-op; a broken connection is dropped, not reused.
      await setup.client.query(UNLOCK_SQL, [key]).catch((error) => {
        broken = error as Error;
      });
      setup.release(broken);
    }
  }

  /** Whether memlane's indexes on the queue's table exist (read without a lock). */
  private async indexed(): Promise<boolean> {
    const result = await this.execute(this.tables.countIndexes());
    return Number((result?.rows[0] as { n?: number } | undefined)?.n ?? 0) === this.tables.indexCount;
  }

  /** Runs a statement of pg-boss-tables.ts on pg-boss's own connections. */
  private execute(statement: Statement) {
    return this.boss.getDb().executeSql(statement.text, statement.values);
  }

  /** Subscribes to the jobs this process runs (one call per try); returns the unsubscribe. */
  onRun(listener: (run: JobRun) => void): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  async enqueue(request: JobRequest): Promise<{ job: JobInfo; done: Promise<JobInfo> }> {
    if (!this.handler)
      throw new UnsupportedError("The job queue has no handler: the engine did not start it");
    if (this.stopping) throw new UnsupportedError("The job queue is closed");
    const sending = (async () => {
      await this.start();
      return this.send(request);
    })();
    // A lost connection while sending is the store being unavailable (503), not an unexpected error.
    const id = await this.track(sending).catch((error: unknown) => {
      throw storeError(error, withoutPassword(this.options.url));
    });
    const job: JobInfo = {
      id,
      tenant: request.tenant,
      agent: request.agent,
      sessionId: request.sessionId,
      state: "queued",
      queuedAt: new Date().toISOString(),
    };
    // A quick worker may have taken it already; keep what is newer.
    if (!this.known.has(id)) this.note(job);
    let resolve!: (job: JobInfo) => void;
    const promise = new Promise<JobInfo>((r) => {
      resolve = r;
    });
    this.waiters.set(id, { resolve, promise });
    this.settleFinished();
    this.wakeAll();
    return { job: { ...(this.known.get(id) ?? job) }, done: promise };
  }

  /**
   * Stores a job parked, then makes it due if it is the first unfinished job of its scope (with
   * its tag, PgBossTables.unparkHead): one agent's jobs are due one at a time, in order, and
   * tenants and agents take turns. A job whose making-due failed stays stored and parked until
   * the next maintenance pass makes it due.
   */
  private async send(request: JobRequest, placeBefore: string[] = []): Promise<string> {
    const { tenant, agent, sessionId } = request;
    const id = await this.boss.send(
      CONSOLIDATE_QUEUE,
      { tenant, agent, sessionId },
      {
        retryLimit: this.options.retryLimit,
        retryDelay: this.options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: this.options.jobTimeoutSeconds,
        startAfter: PARKED,
      },
    );
    if (!id) throw new Error("pg-boss refused the job");
    try {
      if (placeBefore.length > 0) await this.execute(this.tables.placeBefore(id, tenant, agent, placeBefore));
      await this.makeDue(tenant, agent);
    } catch (error) {
      this.logger.warn(
        `job queue stored job ${id} but could not make it due yet (${(error as Error).message}); maintenance will`,
      );
    }
    return id;
  }

  /**
   * Makes a scope's first unfinished job due when it is parked (see PgBossTables.unparkHead);
   * `ran` is the priority of the scope's job that has just run, whose turn the next one follows.
   */
  private async makeDue(tenant: string, agent: string, ran?: number): Promise<void> {
    await this.execute(this.tables.unparkHead(tenant, agent, ran === undefined ? null : 1 - ran));
  }

  /**
   * Jobs of the tenant not finished yet (waiting, parked behind their agent's earlier job,
   * waiting to retry, or running), in every process: one count on memlane's scope index.
   */
  async pending(tenant: string): Promise<number> {
    await this.start();
    try {
      const result = await this.execute(this.tables.pending(tenant));
      return Number((result?.rows[0] as { n?: number } | undefined)?.n ?? 0);
    } catch (error) {
      throw storeError(error, withoutPassword(this.options.url));
    }
  }

  /**
   * Looks at the database now, as the poll does every `pollSeconds` (a worker first takes over the
   * jobs of workers that are gone), and returns the jobs then known.
   */
  async refreshJobs(): Promise<JobInfo[]> {
    await this.start();
    if (this.options.work) await this.takeOver();
    await this.refresh();
    return this.jobs();
  }

  /**
   * Recent jobs, newest last. A waiting job says where it stood in the line at the last look
   * (`position`, 1 runs next): the order the workers would take the waiting jobs in if nothing
   * more were queued and each ran alone.
   */
  jobs(): JobInfo[] {
    return [...this.known.values()]
      .sort((a, b) => a.queuedAt.localeCompare(b.queuedAt))
      .map((j) => {
        const position = j.state === "queued" ? this.positions.get(j.id) : undefined;
        return position === undefined ? { ...j } : { ...j, position };
      });
  }

  /**
   * Resolves when what this process owes is done: its sends are stored and the jobs it runs have
   * finished; in a process that works, also the jobs it queued (wherever they run). A process
   * that only enqueues does not wait for workers: its jobs are safe in Postgres.
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      else if (this.options.work && this.waiters.size > 0 && !this.stopping)
        await Promise.race([...this.waiters.values()].map((w) => w.promise));
      else return;
    }
  }

  /**
   * Stops fetching, lets the jobs running here finish (a SIGTERM'd worker ends its job), then
   * disconnects. Jobs queued here that have not finished stay in Postgres; their `done`
   * settles with the state last seen.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopping = true;
      this.wakeAll();
      await Promise.allSettled(this.loops);
      await Promise.allSettled([...this.inFlight]);
      if (this.poller) clearInterval(this.poller);
      await this.polling;
      for (const [id, w] of this.waiters) {
        const job = this.known.get(id);
        if (job) w.resolve({ ...job });
      }
      this.waiters.clear();
      if (this.starting) {
        await this.starting.catch(() => undefined);
        await this.boss.stop({ graceful: false, close: true, wait: true });
      }
      await this.locks.end();
    })();
    return this.closing;
  }

  /** One worker loop: fetch a job, run it, complete or fail it; sleep when there is none. */
  private async workLoop(): Promise<void> {
    while (!this.stopping) {
      let fetched: FetchedJob[] = [];
      try {
        fetched = await this.fetchFair();
      } catch (error) {
        if (!this.stopping) this.logger.error(`job queue fetch: ${(error as Error).message}`, { error });
      }
      const row = fetched?.[0];
      if (!row) {
        await this.sleep(this.options.pollSeconds * 1000);
        continue;
      }
      await this.track(this.runOne(row));
    }
  }

  /**
   * Takes the next job with memlane's copy of pg-boss's fetch, which skips a tenant that holds its
   * share of the workers (PgBossTables.fetchNext). Fetches take turns under a transaction-scoped
   * advisory lock on the queue: two workers fetching at once would each see the other's job not
   * yet started and both take a tenant's last place.
   */
  private async fetchFair(): Promise<FetchedJob[]> {
    const held = await holdConnection(this.locks);
    let failure: Error | undefined;
    try {
      await held.client.query("BEGIN");
      await held.client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        JSON.stringify([this.options.schema, CONSOLIDATE_QUEUE, "fetch"]),
      ]);
      const statement = this.tables.fetchNext(this.options.perTenant, this.applicationName);
      const { rows } = await held.client.query(statement.text, statement.values);
      await held.client.query("COMMIT");
      return rows as FetchedJob[];
    } catch (error) {
      failure = error as Error;
      await held.client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      held.release(failure);
    }
  }

  /**
   * Runs one fetched job under its scope's lock, or parks it when an earlier job of the scope is
   * unfinished (two jobs of a scope made due at once by racing sends, or a job from before jobs
   * were parked). Either way the scope's first unfinished job is then made due, so the next job
   * of the agent follows at once and a job parked just as its predecessor finished is not left.
   */
  private async runOne(row: FetchedJob): Promise<void> {
    const lock = new ScopeLock(this.locks, this.tables, this.options, row, this.logger);
    try {
      await lock.take();
    } catch (error) {
      await lock.release(error as Error);
      this.logger.error(`job queue could not lock a scope: ${(error as Error).message}`);
      await this.putBack(row.id).catch((failure) =>
        this.logger.error(`job queue could not put job ${row.id} back: ${(failure as Error).message}`),
      );
      return;
    }
    let broken: Error | undefined;
    let ran: number | undefined;
    this.runningHere.add(row.id);
    try {
      if (await this.earlierUnfinished(lock.client(), row)) await this.execute(this.tables.park(row.id));
      else {
        ran = row.priority;
        await this.runLocked(row);
      }
    } catch (error) {
      broken = error as Error;
      this.logger.error(`job queue: ${(error as Error).message}`);
    } finally {
      this.runningHere.delete(row.id);
      await lock.release(broken);
      await this.makeDue(row.data.tenant, row.data.agent, ran).catch((error) =>
        this.logger.warn(
          `job queue could not make the next job of ${row.data.tenant}/${row.data.agent} due (${(error as Error).message}); maintenance will`,
        ),
      );
    }
  }

  /**
   * Takes over the jobs whose worker is gone: active, and the lock connection the job names is
   * no longer connected (the process died, or its machine), or none was named within
   * `OWNERLESS_SECONDS` of the fetch (the fetch's answer was lost with its connection). They go
   * back to be tried again at once (a try is counted, so a job that kills its worker ends
   * failed), rather than after the whole job timeout.
   */
  private async takeOver(): Promise<void> {
    // pg-boss lists no jobs by state, nor knows which connection runs one: read directly.
    const { rows } = await this.execute(this.tables.findLostJobs([...this.runningHere], OWNERLESS_SECONDS));
    const lost = rows as { id: string; tenant: string; agent: string }[];
    const ids = lost.map((r) => r.id);
    if (ids.length === 0) return;
    for (const id of ids)
      await this.boss.fail(CONSOLIDATE_QUEUE, id, { message: "its worker stopped before finishing it" });
    // fail() schedules the retry after the job's backoff; pg-boss cannot make it due now.
    await this.execute(this.tables.retryNow(ids));
    // A job that has used its last try is finished: its agent's next job becomes due.
    for (const r of lost) await this.makeDue(r.tenant, r.agent);
    this.logger.warn(`job queue took over ${ids.length} job(s) whose worker stopped: ${ids.join(", ")}`);
  }

  /**
   * memlane's part of the queue's maintenance, run where pg-boss ran its own this interval (one
   * process per interval): parked jobs that are first in their scope are made due (a process
   * stopped between finishing a job and making the next due, or pg-boss failed a timed-out job
   * for good), tags are shifted back when they have grown large, and closed sessions that have
   * no job are queued (`sweep`).
   */
  maintain(): Promise<void> {
    if (this.maintaining || this.stopping) return this.maintaining ?? Promise.resolve();
    const pass = (async () => {
      await this.start();
      const { rows } = await this.execute(this.tables.unparkAll());
      if (rows.length > 0)
        this.logger.warn(
          `job queue made ${rows.length} parked job(s) due that nothing else had: ${(rows as { id: string }[]).map((r) => r.id).join(", ")}`,
        );
      await this.execute(this.tables.rebaseTags(TAG_REBASE_AT));
      await this.sweep();
    })()
      .catch((error) => this.logger.warn(`job queue maintenance: ${(error as Error).message}`))
      .finally(() => {
        this.maintaining = null;
      });
    this.maintaining = pass;
    return pass;
  }

  /**
   * Queues the consolidation of every closed session that has no unfinished job: its close
   * stored the status, then queueing it failed (a dropped connection, a full connection limit)
   * and nobody closed it again. Each takes its place in its agent's order, before the agent's
   * waiting jobs of sessions that come later (by conversation time). A session counts as lost
   * once two passes in a row found it without a job, so a close still sending its job is not
   * queued twice. Returns the
   * sessions it queued. Without a way to list closed sessions (the engine passes the store's),
   * it does nothing.
   */
  async sweep(): Promise<ClosedSession[]> {
    if (!this.closedSessions) return [];
    await this.start();
    const closed = [...(await this.closedSessions())].sort(
      (a, b) =>
        a.tenant.localeCompare(b.tenant) || a.agent.localeCompare(b.agent) || a.at.localeCompare(b.at),
    );
    if (closed.length === 0) return [];
    const key = (s: { tenant: string; agent: string; sessionId: string }) =>
      JSON.stringify([s.tenant, s.agent, s.sessionId]);
    const result = await this.execute(this.tables.unfinishedSessions(closed));
    const queued = new Set((result?.rows ?? []).map((r) => key(r as ClosedSession)));
    // A session is taken for lost only when the pass before found it without a job too: one
    // whose close is sending its job right now has it by the next pass, and is not queued twice.
    const seen = closed.filter((s) => !queued.has(key(s)));
    const suspects = this.suspects;
    this.suspects = new Set(seen.map(key));
    const lost = seen.filter((s) => suspects.has(key(s)));
    const lostKeys = new Set(lost.map(key));
    // Latest first, so each one is placed before those of its agent that follow it, the ones
    // this pass queued included.
    for (let i = closed.length - 1; i >= 0; i--) {
      const s = closed[i]!;
      if (!lostKeys.has(key(s))) continue;
      const later = closed
        .slice(i + 1)
        .filter((o) => o.tenant === s.tenant && o.agent === s.agent && queued.has(key(o)))
        .map((o) => o.sessionId);
      await this.send({ kind: "consolidate", ...s }, later);
      queued.add(key(s));
    }
    if (lost.length > 0)
      this.logger.warn(
        `job queue queued ${lost.length} closed session(s) that had no job: ${lost
          .map((s) => `${s.tenant}/${s.agent}/${s.sessionId}`)
          .join(", ")}`,
      );
    this.wakeAll();
    return lost;
  }

  /** Whether a job of the same scope queued before this one has not finished yet. */
  private async earlierUnfinished(lock: pg.PoolClient, row: FetchedJob): Promise<boolean> {
    // pg-boss cannot look jobs up by their data: read directly.
    const statement = this.tables.earlierUnfinished(row.id, row.data.tenant, row.data.agent);
    const { rows } = await lock.query(statement.text, statement.values);
    return rows.length > 0;
  }

  /**
   * Back to waiting, shortly, not counted as a try. pg-boss's API has no such move: fail()
   * counts a try and waits out the backoff, and cancel() then resume() would show the job
   * cancelled (failed, to every poll meanwhile) and still count a try at the next fetch.
   */
  private async putBack(id: string): Promise<void> {
    await this.execute(this.tables.putBack(id, this.options.pollSeconds));
  }

  private async runLocked(row: FetchedJob): Promise<void> {
    const { tenant, agent, sessionId } = row.data;
    const job: JobInfo = {
      id: row.id,
      tenant,
      agent,
      sessionId,
      state: "running",
      queuedAt: new Date(row.createdOn).toISOString(),
    };
    this.note(job);
    const started = Date.now();
    let error: string | null = null;
    try {
      const ok = await this.handler!({ kind: "consolidate", tenant, agent, sessionId });
      if (!ok) error = "consolidation failed; see the failed CONSOLIDATE operation";
    } catch (thrown) {
      error = (thrown as Error)?.message ?? String(thrown);
    }
    // Completion is awaited (pg-boss's own work() does not), so a graceful stop never leaves a
    // finished job active.
    // A restart or failover may have ended the connections meanwhile: the record is tried again
    // for a while, or the finished job would be run again once it expires.
    try {
      await persist(
        () =>
          error === null
            ? this.boss.complete(CONSOLIDATE_QUEUE, row.id)
            : this.boss.fail(CONSOLIDATE_QUEUE, row.id, { message: error }),
        (failure, wait) =>
          this.logger.warn(
            `job queue could not record job ${row.id} yet (${failure.message}); trying again in ${wait} ms`,
          ),
      );
    } catch (failure) {
      this.logger.error(`job queue could not record job ${row.id}: ${(failure as Error).message}`);
    }
    // The limit this worker set on the job when it took it (ScopeLock.take).
    const last = row.retryCount >= this.options.retryLimit;
    const finished: JobInfo = {
      ...job,
      state: error === null ? "done" : last ? "failed" : "queued",
      ...(error === null ? {} : { error }),
      ...(error === null || last ? { finishedAt: new Date().toISOString() } : {}),
    };
    this.note(finished);
    for (const listener of this.runListeners)
      listener({ job: { ...finished }, ms: Date.now() - started, attempt: row.retryCount + 1 });
    this.settleFinished();
  }

  /** Records a job's latest state and tells the engine when it changed. */
  private note(job: JobInfo): void {
    const before = this.known.get(job.id);
    this.known.set(job.id, job);
    if (!before || before.state !== job.state || before.error !== job.error) this.onChange({ ...job });
  }

  /** Settles the waiters of jobs that finished for good. */
  private settleFinished(): void {
    for (const [id, w] of this.waiters) {
      const job = this.known.get(id);
      if (job?.finishedAt && (job.state === "done" || job.state === "failed")) {
        this.waiters.delete(id);
        w.resolve({ ...job });
      }
    }
  }

  private poll(): Promise<void> {
    if (this.polling || this.stopping) return this.polling ?? Promise.resolve();
    this.polling = (this.options.work ? this.takeOver() : Promise.resolve())
      .then(() => this.refresh())
      .catch((error) => this.logger.warn(`job queue poll: ${(error as Error).message}`))
      .finally(() => {
        this.polling = null;
      });
    return this.polling;
  }

  /**
   * Reads every waiting or running job, the latest finished ones and those awaited here. pg-boss
   * lists no jobs, so the job table is read directly; an awaited job no longer there has been
   * archived (it finished hours ago) and is read with getJobById.
   */
  private async refresh(): Promise<void> {
    const awaited = [...this.waiters.keys()];
    const result = await this.execute(this.tables.listJobs(awaited));
    if (!result) return;
    const rows = result.rows as JobRow[];
    const seen = new Set(rows.map((row) => row.id));
    for (const id of awaited) {
      if (seen.has(id)) continue;
      const archived = await this.boss.getJobById<JobRow["data"]>(CONSOLIDATE_QUEUE, id, {
        includeArchive: true,
      });
      if (archived)
        rows.push({
          id: archived.id,
          data: archived.data,
          state: archived.state,
          output: archived.output as JobRow["output"],
          created_on: archived.createdOn,
          completed_on: archived.completedOn ?? null,
        });
    }
    for (const row of rows) {
      seen.add(row.id);
      this.note(fromRow(row));
    }
    this.positions = queuePositions(
      rows
        .filter((row) => row.state === "created" || row.state === "retry" || row.state === "active")
        .map((row) => ({
          id: row.id,
          tenant: row.data.tenant,
          agent: row.data.agent,
          running: row.state === "active",
          tag: row.parked ? null : -(row.priority ?? 0),
        })),
    );
    // Forget what fell out of the window, except jobs awaited or run here right now.
    for (const [id, job] of this.known)
      if (!seen.has(id) && !this.waiters.has(id) && job.state !== "running") this.known.delete(id);
    this.settleFinished();
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }
}

/** Seconds an active job may go without naming its worker's lock connection before it counts as lost. */
const OWNERLESS_SECONDS = 30;

/**
 * The scope lock one job runs under: a connection of its own that first names itself in the job
 * (`output.worker`, its backend pid, which `takeOver` checks for) and then takes the scope's
 * advisory lock. If the server ends that connection while the job runs (a restart, a failover),
 * the lock is taken again on a new connection, which names itself again, so no other worker
 * takes the job over or starts the scope's next job meanwhile.
 */
class ScopeLock {
  private held: HeldConnection | null = null;
  private retaking: Promise<void> | null = null;
  private released = false;
  private readonly scope: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly tables: PgBossTables,
    private readonly policy: Pick<
      Required<PostgresQueueOptions>,
      "jobTimeoutSeconds" | "retryLimit" | "retryDelaySeconds"
    >,
    private readonly row: FetchedJob,
    private readonly logger: Logger,
  ) {
    this.scope = JSON.stringify([row.data.tenant, row.data.agent]);
  }

  client(): pg.PoolClient {
    return this.held!.client;
  }

  /** Names this worker in the job, then blocks until the scope's lock is ours. */
  async take(): Promise<void> {
    const held = await holdConnection(this.pool, (error) => this.lost(error));
    try {
      // The worker that runs a job sets its timeout and retries (--job-timeout, --job-retries),
      // whatever the process that queued it (`serve --no-worker`) was started with.
      // pg-boss cannot change a job's settings once sent, nor record who runs it: written
      // directly, on this connection so the pid it records is the one holding the lock.
      const p = this.policy;
      const claim = this.tables.claim(this.row.id, {
        timeoutSeconds: p.jobTimeoutSeconds,
        retryLimit: p.retryLimit,
        retryDelaySeconds: p.retryDelaySeconds,
      });
      await held.client.query(claim.text, claim.values);
      // Blocks while another worker runs a job of this scope; released with the connection if
      // this process dies.
      await held.client.query(LOCK_SQL, [this.scope]);
    } catch (error) {
      // Closed, not kept: the pool holds one connection per job slot, and a connection kept here
      // would leave the next try waiting for one for ever.
      held.release(error as Error);
      throw error;
    }
    this.held = held;
  }

  private lost(error: Error): void {
    if (this.released || this.retaking) return;
    this.logger.warn(
      `job queue lost the scope lock of job ${this.row.id} (${error.message}); taking it again`,
    );
    const dead = this.held;
    this.retaking = persist(
      () => this.take(),
      (failure, wait) =>
        this.logger.warn(
          `job queue could not lock job ${this.row.id}'s scope again yet (${failure.message}); trying in ${wait} ms`,
        ),
    )
      .catch((failure) =>
        this.logger.error(
          `job queue could not lock job ${this.row.id}'s scope again: ${(failure as Error).message}`,
        ),
      )
      .finally(() => {
        this.retaking = null;
      });
    dead?.release();
  }

  /** Unlocks and gives the connection back (closed when it failed or was lost). */
  async release(error?: Error): Promise<void> {
    this.released = true;
    await this.retaking;
    const held = this.held;
    if (!held) return;
    let broken = error;
    if (!held.lost)
      await held.client.query(UNLOCK_SQL, [this.scope]).catch((failure) => {
        broken ??= failure as Error;
      });
    held.release(broken);
  }
}

/** Waits between tries of `persist`: about 25 s in all, longer than a server takes to restart. */
const PERSIST_WAITS = [100, 250, 500, 1000, 2000, 4000, 8000, 8000];

/** Runs `write` until it succeeds, waiting between tries; the last failure is thrown. */
async function persist<T>(
  write: () => Promise<T>,
  onRetry: (error: Error, wait: number) => void,
): Promise<T> {
  for (const wait of PERSIST_WAITS) {
    try {
      return await write();
    } catch (error) {
      onRetry(error as Error, wait);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
  return write();
}

const STATES: Record<JobRow["state"], JobState> = {
  created: "queued",
  retry: "queued",
  active: "running",
  completed: "done",
  cancelled: "failed",
  failed: "failed",
};

function fromRow(row: JobRow): JobInfo {
  const state = STATES[row.state];
  const message = row.output?.message ?? row.output?.value?.message;
  const error =
    row.state === "cancelled"
      ? "cancelled"
      : row.state === "failed" || row.state === "retry"
        ? message
        : undefined;
  return {
    id: row.id,
    tenant: row.data.tenant,
    agent: row.data.agent,
    sessionId: row.data.sessionId,
    state,
    ...(error ? { error } : {}),
    queuedAt: new Date(row.created_on).toISOString(),
    ...(row.completed_on && (state === "done" || state === "failed")
      ? { finishedAt: new Date(row.completed_on).toISOString() }
      : {}),
  };
}
