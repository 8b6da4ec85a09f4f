/**
 * Schema steps of the Postgres store, applied in order and recorded in `schema_migrations`; never
 * edit a released step, add one. Every table lives in the store's schema (default `memlane`) and
 * every primary key, unique constraint, foreign key and index starts with the tenant, so Citus can
 * distribute each table by tenant (`create_distributed_table(…, 'tenant')`, docs/postgres.md).
 * Identifiers and times are text in the "C" collation: they sort byte by byte, as in SQLite.
 */
import { StoreUnavailableError } from "../../core/errors.js";
import { POSTGRES_DEFAULTS } from "../../store/postgres-settings.js";
import { isLockTimeout } from "./pg-errors.js";
import { quoteIdent } from "./pg-pool-client.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

const key = 'text COLLATE "C" NOT NULL';

/**
 * An index on a table that may already hold rows, built with CREATE INDEX CONCURRENTLY outside any
 * transaction: readers and writers go on while it is built (a plain CREATE INDEX holds off every
 * write to the table until it ends). `create` names the index `index`, in the search path's schema.
 */
export interface ConcurrentIndexStep {
  index: string;
  create: string;
}

/** A schema step: statements applied in one transaction, or one index built concurrently. */
export type MigrationStep = string | ConcurrentIndexStep;

export const POSTGRES_MIGRATIONS: MigrationStep[] = [
  `
  CREATE TABLE sessions (
    tenant ${key}, agent ${key}, id ${key},
    partners text NOT NULL,
    at ${key},
    status text NOT NULL CHECK (status IN ('open','closed','consolidated','failed')),
    strategy text NOT NULL,
    meta text NOT NULL DEFAULT '{}',
    recorded_at ${key},
    PRIMARY KEY (tenant, agent, id)
  );
  CREATE INDEX sessions_by_time ON sessions (tenant, agent, at);

  CREATE TABLE turns (
    tenant ${key}, agent ${key}, id ${key},
    session_id ${key},
    idx integer NOT NULL,
    speaker ${key},
    text text NOT NULL,
    at ${key},
    meta text NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant, agent, id),
    UNIQUE (tenant, agent, session_id, idx),
    FOREIGN KEY (tenant, agent, session_id) REFERENCES sessions (tenant, agent, id) ON DELETE CASCADE
  );

  CREATE TABLE memories (
    tenant ${key}, agent ${key}, id ${key},
    about ${key},
    text text NOT NULL,
    kind ${key},
    strategy ${key},
    observed_at ${key},
    recorded_at ${key},
    status text NOT NULL CHECK (status IN ('active','superseded','forgotten')),
    invalid_at text COLLATE "C",
    session_id text COLLATE "C",
    source_turns text NOT NULL DEFAULT '[]',
    attributes text NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant, agent, id)
  );
  CREATE INDEX memories_by_scope ON memories (tenant, agent, status, about);
  CREATE INDEX memories_by_session ON memories (tenant, agent, session_id);

  CREATE TABLE edges (
    tenant ${key}, agent ${key}, id ${key},
    src ${key},
    dst ${key},
    type text NOT NULL,
    attributes text NOT NULL DEFAULT '{}',
    recorded_at ${key},
    PRIMARY KEY (tenant, agent, id),
    FOREIGN KEY (tenant, agent, src) REFERENCES memories (tenant, agent, id) ON DELETE CASCADE,
    FOREIGN KEY (tenant, agent, dst) REFERENCES memories (tenant, agent, id) ON DELETE CASCADE
  );
  CREATE INDEX edges_by_src ON edges (tenant, agent, src);
  CREATE INDEX edges_by_dst ON edges (tenant, agent, dst);

  CREATE TABLE embeddings (
    tenant ${key}, agent ${key},
    owner_kind text COLLATE "C" NOT NULL CHECK (owner_kind IN ('memory','turn')),
    owner_id ${key},
    model ${key},
    dims integer NOT NULL,
    vector bytea NOT NULL,
    PRIMARY KEY (tenant, agent, owner_kind, model, owner_id)
  );

  CREATE TABLE operations (
    tenant ${key}, agent ${key}, id ${key},
    type text NOT NULL,
    status text NOT NULL CHECK (status IN ('done','failed')),
    strategy text NOT NULL,
    model text NOT NULL,
    session_id text COLLATE "C",
    inputs text NOT NULL DEFAULT 'null',
    outputs text NOT NULL DEFAULT 'null',
    rationale text,
    error text,
    calls integer NOT NULL DEFAULT 0,
    prompt_tokens integer NOT NULL DEFAULT 0,
    completion_tokens integer NOT NULL DEFAULT 0,
    latency_ms double precision NOT NULL DEFAULT 0,
    at ${key},
    recorded_at ${key},
    PRIMARY KEY (tenant, agent, id)
  );
  CREATE INDEX operations_by_scope ON operations (tenant, agent, status, recorded_at);
  CREATE INDEX operations_by_session ON operations (tenant, agent, session_id);

  CREATE TABLE operation_refs (
    tenant ${key}, agent ${key},
    op_id ${key},
    memory_id ${key},
    PRIMARY KEY (tenant, agent, op_id, memory_id),
    FOREIGN KEY (tenant, agent, op_id) REFERENCES operations (tenant, agent, id) ON DELETE CASCADE
  );
  CREATE INDEX operation_refs_by_memory ON operation_refs (tenant, agent, memory_id);

  -- A change version per scope, bumped inside every transaction that changes the scope: every
  -- process compares it to know when its cached index is stale.
  CREATE TABLE scope_versions (
    tenant ${key}, agent ${key},
    version bigint NOT NULL,
    PRIMARY KEY (tenant, agent)
  );
  `,
  // 2: API keys of \`memlane serve\` (key-store.ts). Looked up by id alone, so under Citus this
  // small table is a reference table (copied to every node), not distributed.
  `
  CREATE TABLE api_keys (
    id ${key},
    tenant ${key},
    name text NOT NULL,
    salt text NOT NULL,
    hash text NOT NULL,
    created_at ${key},
    revoked_at text COLLATE "C",
    PRIMARY KEY (id)
  );
  CREATE INDEX api_keys_by_tenant ON api_keys (tenant, created_at);
  `,
  // 3: transcript uploads of `memlane serve` as durable jobs (ingest-job-store.ts): an
  // unfinished job keeps its validated transcripts (JSON text) so another server can take it over
  // when its owner's heartbeat stops. Tenant first, so Citus distributes it by tenant.
  `
  CREATE TABLE ingest_jobs (
    tenant ${key}, id ${key},
    state text NOT NULL CHECK (state IN ('queued','running','done','failed')),
    error text,
    queued_at ${key},
    started_at text COLLATE "C",
    finished_at text COLLATE "C",
    reports text,
    transcripts text,
    owner text COLLATE "C" NOT NULL,
    heartbeat_at ${key},
    PRIMARY KEY (tenant, id)
  );
  CREATE INDEX ingest_jobs_by_time ON ingest_jobs (tenant, queued_at);
  CREATE INDEX ingest_jobs_unfinished ON ingest_jobs (tenant, queued_at) WHERE state IN ('queued','running');
  `,
  // 4: the scope's change log (store/sql/scope-changes.ts): a trigger logs every row of memories,
  // turns, edges and embeddings that a transaction inserts, updates or deletes, under the scope's
  // version that the transaction moved first, so search indexes update in place from a delta. A
  // scope's log starts now: an index built before reads no delta (horizon) and builds afresh.
  `
  CREATE TABLE scope_changes (
    tenant ${key}, agent ${key},
    seq bigint NOT NULL,
    kind text COLLATE "C" NOT NULL,
    id ${key},
    src text COLLATE "C",
    dst text COLLATE "C",
    PRIMARY KEY (tenant, agent, seq, kind, id)
  );
  CREATE TABLE scope_horizons (
    tenant ${key}, agent ${key},
    horizon bigint NOT NULL,
    PRIMARY KEY (tenant, agent)
  );
  INSERT INTO scope_horizons (tenant, agent, horizon) SELECT tenant, agent, version FROM scope_versions;
  CREATE FUNCTION log_scope_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  DECLARE
    r record;
    k text;
    i text;
    s text;
    d text;
  BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    IF TG_TABLE_NAME = 'memories' THEN k := 'memory'; i := r.id;
    ELSIF TG_TABLE_NAME = 'turns' THEN k := 'turn'; i := r.id;
    ELSIF TG_TABLE_NAME = 'edges' THEN k := 'edge'; i := r.id; s := r.src; d := r.dst;
    ELSE k := r.owner_kind || '-vector'; i := r.owner_id;
    END IF;
    INSERT INTO scope_changes (tenant, agent, seq, kind, id, src, dst)
      SELECT r.tenant, r.agent, v.version, k, i, s, d FROM scope_versions v
      WHERE v.tenant = r.tenant AND v.agent = r.agent
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$;
  CREATE TRIGGER memories_logged AFTER INSERT OR UPDATE OR DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION log_scope_change();
  CREATE TRIGGER turns_logged AFTER INSERT OR UPDATE OR DELETE ON turns
    FOR EACH ROW EXECUTE FUNCTION log_scope_change();
  CREATE TRIGGER edges_logged AFTER INSERT OR UPDATE OR DELETE ON edges
    FOR EACH ROW EXECUTE FUNCTION log_scope_change();
  CREATE TRIGGER embeddings_logged AFTER INSERT OR UPDATE OR DELETE ON embeddings
    FOR EACH ROW EXECUTE FUNCTION log_scope_change();
  `,
  // 5: operations in log order within a scope, so the newest few are read without the whole log.
  // Built concurrently: operations is the largest table of an older store, and writes go on.
  {
    index: "operations_by_time",
    create: "CREATE INDEX CONCURRENTLY operations_by_time ON operations (tenant, agent, at, recorded_at, id)",
  },
  // 6-10: the orders of the paged lists (store/sql/list-page.ts), so a page is read from its
  // index after the cursor's key: memories in their list's order (of one status too: active is
  // the default), sessions and turns by conversation time, edges as written.
  {
    index: "memories_by_time",
    create:
      "CREATE INDEX CONCURRENTLY memories_by_time ON memories (tenant, agent, observed_at, recorded_at, id)",
  },
  {
    index: "memories_by_status_time",
    create:
      "CREATE INDEX CONCURRENTLY memories_by_status_time ON memories (tenant, agent, status, observed_at, recorded_at, id)",
  },
  {
    index: "sessions_by_order",
    create: "CREATE INDEX CONCURRENTLY sessions_by_order ON sessions (tenant, agent, at, recorded_at, id)",
  },
  {
    index: "turns_by_time",
    create: "CREATE INDEX CONCURRENTLY turns_by_time ON turns (tenant, agent, at, session_id, idx)",
  },
  {
    index: "edges_by_time",
    create: "CREATE INDEX CONCURRENTLY edges_by_time ON edges (tenant, agent, recorded_at, id)",
  },
];

/** Any 64-bit number, the same in every memlane process: the lock migrations run under. */
const MIGRATION_LOCK = 0x4d4c4e45;

/** The schema's migration version, read without a lock: 0 when memlane's tables are not there. */
export async function schemaVersion(client: SqlClient, schema: string): Promise<number> {
  const table = `${quoteIdent(schema)}.schema_migrations`;
  const here = await client.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [table]);
  if (!here.rows[0]?.t) return 0;
  const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${table}`);
  return Number(rows[0]?.v ?? 0);
}

/** The schema version this memlane writes. */
export const SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** What a process that finds a schema newer than its code says (and refuses to start with). */
function newerSchema(label: string, version: number): StoreUnavailableError {
  return new StoreUnavailableError(
    `${label} was written by a newer memlane (schema ${version}; this one knows ${SCHEMA_VERSION}): upgrade this process`,
    { schemaVersion: version, knownVersion: SCHEMA_VERSION },
  );
}

/** Waits between tries of a schema change that found its table locked: about 48 s in all. */
const LOCK_RETRY_WAITS = [250, 500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000];

/** The longest a schema change waits for its table at each try, in ms. */
const DDL_LOCK_TIMEOUT_MS = 1000;

/**
 * How long one try of a schema change waits for its table: at most 1 s, and less than the lock
 * timeout of ordinary statements (half of it). While a change waits for its table, every
 * statement on that table queues behind it; they must not reach their own lock timeout there.
 */
export function ddlLockTimeout(lockTimeoutMs: number = POSTGRES_DEFAULTS.lockTimeoutMs): number {
  return lockTimeoutMs > 0
    ? Math.max(1, Math.min(DDL_LOCK_TIMEOUT_MS, Math.floor(lockTimeoutMs / 2)))
    : DDL_LOCK_TIMEOUT_MS;
}

/**
 * Runs `change` until it is not refused for a lock held elsewhere, waiting longer between tries.
 * A schema change waits at most `lock_timeout` for its table: queued longer behind a long reader,
 * it would hold off every statement that comes after it, readers included, until that reader
 * ends. So it gives way and comes back; the last refusal is thrown as STORE_UNAVAILABLE.
 * @throws {StoreUnavailableError} the lock was still held at the last try
 */
export async function retryOnLockTimeout<T>(
  what: string,
  label: string,
  change: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await change();
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      const wait = LOCK_RETRY_WAITS[attempt];
      if (wait === undefined)
        throw new StoreUnavailableError(
          `${label}: could not ${what}: a lock held elsewhere (a long transaction?) was not granted in ${attempt + 1} tries`,
          { reason: "lock-timeout" },
          error,
        );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Whether an index exists and may be used ("valid"), is left over or being built ("invalid"), or is missing. */
export async function indexState(
  session: SqlQueryable,
  qualifiedName: string,
): Promise<"valid" | "invalid" | "missing"> {
  const { rows } = await session.query<{ valid: boolean }>(
    "SELECT indisvalid AND indisready AS valid FROM pg_index WHERE indexrelid = to_regclass($1)",
    [qualifiedName],
  );
  if (!rows[0]) return "missing";
  return rows[0].valid ? "valid" : "invalid";
}

/**
 * Builds an index concurrently unless a valid one exists (looked up in pg_index, not re-issued).
 * An invalid one is what an interrupted build leaves (a cancelled statement, a killed process):
 * it is dropped, concurrently, and built again. The caller holds a lock that keeps other processes
 * from building the same index meanwhile, and a session whose statement timeout is off (a build
 * over a large table takes as long as it takes, and blocks no reader or writer).
 */
export async function buildIndexConcurrently(
  session: SqlQueryable,
  qualifiedName: string,
  create: string,
): Promise<void> {
  const state = await indexState(session, qualifiedName);
  if (state === "valid") return;
  if (state === "invalid") await session.query(`DROP INDEX CONCURRENTLY IF EXISTS ${qualifiedName}`);
  await session.query(create);
}

/**
 * Brings the schema up to date. A schema that is current is only read: a process starting
 * beside long transactions takes no lock and changes nothing, and one newer than this memlane is
 * refused at once. Otherwise, whatever the number of processes starting together, each takes the
 * same advisory lock, and the first one in applies what is missing, step by step: each step's
 * statements in one transaction, an index on a table that may hold rows built concurrently.
 * Every DDL statement waits at most `ddlLockTimeout(lockTimeoutMs)` (1 s) for its table and is
 * tried again after a pause (retryOnLockTimeout), so a migration never queues readers behind a
 * long transaction for longer than that;
 * statements have no time limit (an index build over a large table takes its time).
 * (`memlane migrate` runs this step alone.)
 * @returns the version found before, and the version now
 * @throws {StoreUnavailableError} the schema is newer than this memlane, holds tables of another program, or stayed locked
 */
export async function migrate(
  client: SqlClient,
  schema: string,
  options: { lockTimeoutMs?: number } = {},
): Promise<{ from: number; to: number }> {
  const found = await schemaVersion(client, schema);
  if (found === SCHEMA_VERSION) return { from: found, to: found };
  if (found > SCHEMA_VERSION) throw newerSchema(client.label, found);
  const name = quoteIdent(schema);
  const lockTimeout = String(ddlLockTimeout(options.lockTimeoutMs));
  const retry = <T>(what: string, change: () => Promise<T>) => retryOnLockTimeout(what, client.label, change);
  return client.session(
    async (c) => {
      await c.query("SELECT set_config('lock_timeout', $1, false)", [lockTimeout]);
      await takeMigrationLock(c);
      try {
        const known = await c.query<{ here: string | null; sessions: string | null }>(
          "SELECT to_regclass($1) AS here, to_regclass($2) AS sessions",
          [`${name}.schema_migrations`, `${name}.sessions`],
        );
        const { here, sessions } = known.rows[0] ?? { here: null, sessions: null };
        if (!here && sessions)
          throw new StoreUnavailableError(
            `${client.label}: schema ${schema} already holds tables that are not memlane's`,
          );
        if (!here)
          await retry("create the schema", () =>
            inTransaction(c, async () => {
              await c.query(`CREATE SCHEMA IF NOT EXISTS ${name}`);
              await c.query(
                `CREATE TABLE IF NOT EXISTS ${name}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
              );
            }),
          );
        const result = await c.query<{ v: number | null }>(
          `SELECT max(version) AS v FROM ${name}.schema_migrations`,
        );
        const version = Number(result.rows[0]?.v ?? 0);
        if (version > SCHEMA_VERSION) throw newerSchema(client.label, version);
        const record = (v: number) =>
          c.query(`INSERT INTO ${name}.schema_migrations (version) VALUES ($1)`, [v]);
        for (let v = version; v < SCHEMA_VERSION; v++) {
          const step = POSTGRES_MIGRATIONS[v]!;
          if (typeof step === "string")
            await retry(`apply schema step ${v + 1}`, () =>
              inTransaction(c, async () => {
                for (const statement of statements(step)) await c.query(statement);
                await record(v + 1);
              }),
            );
          else {
            await retry(`build index ${step.index}`, () =>
              buildIndexConcurrently(c, `${name}.${quoteIdent(step.index)}`, step.create),
            );
            await record(v + 1);
          }
        }
        return { from: version, to: SCHEMA_VERSION };
      } finally {
        await c.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
      }
    },
    // Each step creates its tables in the store's schema, whatever the connection's search path.
    { statement_timeout: 0, search_path: `${name}, public` },
  );
}

/** How often a process waiting for another's migration looks whether the lock is free, in ms. */
const MIGRATION_POLL_MS = 200;

/**
 * Takes the migration lock, waiting for another process's migration as long as it lasts. The wait
 * is a loop of tries, not one blocking `pg_advisory_lock`: a statement that waits holds a
 * snapshot, and CREATE INDEX CONCURRENTLY, in the migrating process, waits for every older
 * snapshot to end, so the two would wait on each other (Postgres ends it as a deadlock).
 */
async function takeMigrationLock(session: SqlQueryable): Promise<void> {
  for (;;) {
    const { rows } = await session.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1) AS got", [
      MIGRATION_LOCK,
    ]);
    if (rows[0]?.got) return;
    await new Promise((resolve) => setTimeout(resolve, MIGRATION_POLL_MS));
  }
}

/** Runs `work` between BEGIN and COMMIT on a session, rolling back when it throws. */
async function inTransaction<T>(session: SqlQueryable, work: () => Promise<T>): Promise<T> {
  await session.query("BEGIN");
  try {
    const out = await work();
    await session.query("COMMIT");
    return out;
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * A step's statements one by one (the extended protocol takes one at a time): split at the
 * semicolons outside dollar-quoted bodies (a trigger function's body has its own).
 */
function statements(step: string): string[] {
  const parts = step.replace(/--[^\n]*\n/g, "\n").split("$$");
  const out: string[] = [""];
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      out.push(`${out.pop() ?? ""}$$${part}$$`);
      return;
    }
    const [first = "", ...rest] = part.split(";");
    out.push(`${out.pop() ?? ""}${first}`, ...rest);
  });
  return out.map((s) => s.trim()).filter(Boolean);
}
