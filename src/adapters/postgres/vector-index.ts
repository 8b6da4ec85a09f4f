/**
 * pgvector inside the Postgres store, where the extension exists (PGlite always; a server when
 * `pg_available_extensions` lists it and we may create it). Memory vectors are then also kept in
 * a `vector` column, an HNSW index per embedding model (and width) serves cosine k-NN, and the
 * query runs in SQL. The float32 `bytea` stays the source every store reads vectors from; the
 * `vector` column is a copy for the index.
 */
import { createHash } from "node:crypto";
import type { MemoryFilter, Scope } from "../../core/types.js";
import type { VectorHit } from "../../store/memory-store.js";
import { blobToVector } from "../../store/sql/rows.js";
import { memoryWhere, Params } from "./memory-filter.js";
import { buildIndexConcurrently, ddlLockTimeout, indexState, retryOnLockTimeout } from "./migrations.js";
import type { SqlClient, SqlRow } from "./sql-client.js";

/** pgvector's text form of a vector. */
export function vectorLiteral(v: Float32Array): string {
  return `[${Array.from(v).join(",")}]`;
}

/** The lock taken while the extension, the column or an index is made (several processes start at once). */
const VECTOR_LOCK = 0x4d4c4e46;
/** Rows copied into the `vector` column per statement when an existing store gains pgvector. */
const BACKFILL_BATCH = 2000;

/** What the installed pgvector can do. */
export interface PgvectorAbilities {
  version: string;
  /** `hnsw.iterative_scan` (pgvector 0.8): a filtered k-NN walk goes on until it has k rows. */
  iterativeScan: boolean;
}

/** pgvector's first release with HNSW indexes, and the first with iterative index scans. */
const HNSW_SINCE = [0, 5, 0];
const ITERATIVE_SINCE = [0, 8, 0];

/** Whether version `v` ("0.7.4") is at least `least` ([0, 8, 0]). */
function atLeast(v: string, least: number[]): boolean {
  const parts = v.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < least.length; i++) {
    const a = parts[i] ?? 0;
    if (a !== least[i]) return a > least[i]!;
  }
  return true;
}

/**
 * What memlane uses of a pgvector release: null below 0.5 (no HNSW: exact search in the
 * process), HNSW without iterative scans below 0.8 (a filtered search that finds too few falls
 * back to an exact scan in SQL), everything from 0.8.
 */
export function pgvectorAbilities(version: string): PgvectorAbilities | null {
  if (!atLeast(version, HNSW_SINCE)) return null;
  return { version, iterativeScan: atLeast(version, ITERATIVE_SINCE) };
}

/**
 * Makes pgvector ready when it can be, and says what it can do; null (and nothing changed) where
 * the extension is missing, may not be created here, or is too old for HNSW. A store whose
 * extension and `embedding` column are in place is only read (no lock, no DDL), so processes
 * starting beside a long-running reader do not queue behind it. Otherwise the first process that
 * finds them missing creates the extension and adds the column (nullable, no default: a change of
 * the catalog only) in one short transaction that waits at most `lock_timeout` for the table and
 * is tried again after a pause, so it never holds readers behind a long transaction. Vectors
 * stored before are copied into the column afterwards, in short transactions of their own
 * (`backfillVectors`), which the store runs in the background while its searches stay exact.
 */
export async function enableVectors(
  client: SqlClient,
  options: { lockTimeoutMs?: number; backfill?: "wait" | "none" } = {},
): Promise<PgvectorAbilities | null> {
  let abilities: PgvectorAbilities | null;
  try {
    const ready = await probe(client);
    abilities =
      ready !== undefined
        ? ready
        : await retryOnLockTimeout("add pgvector's column", client.label, () =>
            addColumn(client, ddlLockTimeout(options.lockTimeoutMs)),
          );
  } catch {
    // No permission to create the extension (a managed server without it allowed), or the table
    // stayed locked: exact search in the process.
    return null;
  }
  if (abilities && options.backfill === "wait") await backfillVectors(client);
  return abilities;
}

/** The extension and the column, in one transaction under the lock every process shares. */
async function addColumn(client: SqlClient, lockTimeoutMs: number): Promise<PgvectorAbilities | null> {
  return client.transaction(async (tx) => {
    await tx.query("SELECT set_config('lock_timeout', $1, true)", [String(lockTimeoutMs)]);
    await tx.query("SELECT pg_advisory_xact_lock($1)", [VECTOR_LOCK]);
    const available = await tx.query<{ version: string }>(
      "SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'",
    );
    const offered = available.rows[0]?.version;
    if (!offered) return null;
    // In public, which every memlane connection has on its search path (after its own schema),
    // so the type and operators resolve for stores of any schema.
    await tx.query("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
    const installed = await tx.query<{ schema: string; version: string }>(
      "SELECT extnamespace::regnamespace::text AS schema, extversion AS version FROM pg_extension WHERE extname = 'vector'",
    );
    const row = installed.rows[0];
    // Installed elsewhere before us (an `extensions` schema): not on our path, so not ours to use.
    if (row?.schema !== "public") return null;
    const abilities = pgvectorAbilities(row.version);
    if (!abilities) return null;
    await tx.query("ALTER TABLE embeddings ADD COLUMN IF NOT EXISTS embedding vector");
    return abilities;
  });
}

/**
 * The read-only look at start: the abilities when the extension (in public) and the column are
 * both there; null when the extension is there but unusable (another schema, too old) or cannot
 * be had at all; undefined when something is missing that the locked path may make.
 */
async function probe(client: SqlClient): Promise<PgvectorAbilities | null | undefined> {
  const { rows } = await client.query<{ schema: string | null; version: string | null; column: boolean }>(
    `SELECT (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'vector') AS schema,
            (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version,
            EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('embeddings')
                    AND attname = 'embedding' AND NOT attisdropped) AS column`,
  );
  const row = rows[0];
  if (!row?.version) return undefined;
  if (row.schema !== "public") return null;
  const abilities = pgvectorAbilities(row.version);
  if (!abilities) return null;
  return row.column ? abilities : undefined;
}

/**
 * Copies memory vectors stored before the column existed into it, `batch` rows per transaction,
 * so no transaction holds rows (or PGlite's one session) for long and readers and writers go on
 * between batches. Processes that run it at once do no harm: a row already copied is skipped.
 * `stopped` is asked before each batch (a store that closes stops copying; the next process
 * that starts goes on).
 * @returns how many rows were copied here
 */
export async function backfillVectors(
  client: SqlClient,
  options: { batch?: number; stopped?: () => boolean } = {},
): Promise<number> {
  const batch = options.batch ?? BACKFILL_BATCH;
  let copied = 0;
  for (;;) {
    if (options.stopped?.()) return copied;
    const n = await client.transaction(async (tx) => {
      const missing = await tx.query<{
        tenant: string;
        agent: string;
        owner_id: string;
        model: string;
        vector: Uint8Array;
      }>(
        `SELECT tenant, agent, owner_id, model, vector FROM embeddings
         WHERE owner_kind = 'memory' AND embedding IS NULL LIMIT ${Math.max(1, Math.floor(batch))}`,
      );
      // One statement per tenant, naming it: under Citus each goes to its tenant's shard.
      const byTenant = new Map<string, typeof missing.rows>();
      for (const row of missing.rows) {
        const rows = byTenant.get(row.tenant);
        if (rows) rows.push(row);
        else byTenant.set(row.tenant, [row]);
      }
      for (const [tenant, r] of byTenant)
        await tx.query(
          `UPDATE embeddings e SET embedding = u.v::vector
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(agent, owner_id, model, v)
           WHERE e.tenant = $1 AND e.agent = u.agent AND e.owner_kind = 'memory' AND e.owner_id = u.owner_id
             AND e.model = u.model AND e.embedding IS NULL`,
          [
            tenant,
            r.map((x) => x.agent),
            r.map((x) => x.owner_id),
            r.map((x) => x.model),
            r.map((x) => vectorLiteral(blobToVector(x.vector))),
          ],
        );
      return missing.rows.length;
    });
    if (n === 0) return copied;
    copied += n;
  }
}

/** pgvector's ceiling for `hnsw.ef_search`. */
const MAX_EF_SEARCH = 1000;

/** Hits best first, ties by id. */
function ranked(rows: SqlRow[]): VectorHit[] {
  return rows
    .map((r) => ({ id: String(r.id), score: Number(r.score) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** A model name as an SQL string literal (it is part of an index predicate, so it cannot be a parameter). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** How long a failed index build waits before a search starts it again. */
const BUILD_RETRY_MS = 30_000;

/**
 * The HNSW indexes of one store: one per embedding model and width, a partial index on the
 * `vector` column cast to that width. An index is looked up in pg_index, never re-issued; a
 * missing one is built with CREATE INDEX CONCURRENTLY by one process (under a try-lock), in the
 * background, while searches stay exact (`usable` says when the index may serve them) and readers
 * and writers go on. PGlite has one session, so there its build still holds other statements
 * until it ends; the store starts it at a model's first vectors, when it is quick.
 */
export class HnswIndexes {
  private readonly valid = new Set<string>();
  private readonly building = new Map<string, Promise<void>>();
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly client: SqlClient) {}

  private static key(model: string, dims: number): string {
    return `${model}\u0000${dims}`;
  }

  /** The index's name: a digest of the model and width (a model name may be any text). */
  static indexName(model: string, dims: number): string {
    return `embeddings_hnsw_${createHash("sha1").update(HnswIndexes.key(model, dims)).digest("hex").slice(0, 12)}`;
  }

  /**
   * Whether the index for `model` at `dims` is built and valid, so a search may use it. When it
   * is not, its build is started in the background (unless one is under way here, or the last
   * failed less than 30 s ago) and the caller searches exactly meanwhile.
   */
  async usable(model: string, dims: number): Promise<boolean> {
    const key = HnswIndexes.key(model, dims);
    if (this.valid.has(key)) return true;
    if (this.building.has(key)) return false;
    if ((await indexState(this.client, HnswIndexes.indexName(model, dims))) === "valid") {
      this.valid.add(key);
      return true;
    }
    if (Date.now() - (this.failedAt.get(key) ?? 0) >= BUILD_RETRY_MS)
      void this.ensure(model, dims).catch(() => {});
    return false;
  }

  /**
   * Builds the index for `model` at `dims` unless it exists (in this or another process), and
   * resolves once it is valid. When another process holds the build, resolves when it is done
   * there (looked up every half second).
   */
  ensure(model: string, dims: number): Promise<void> {
    const key = HnswIndexes.key(model, dims);
    if (this.valid.has(key)) return Promise.resolve();
    let made = this.building.get(key);
    if (!made) {
      made = this.build(model, dims).then(
        () => {
          this.valid.add(key);
          this.failedAt.delete(key);
        },
        (error) => {
          this.failedAt.set(key, Date.now());
          throw error;
        },
      );
      const settled = made.catch(() => {});
      void settled.finally(() => {
        if (this.building.get(key) === made) this.building.delete(key);
      });
      this.building.set(key, made);
    }
    return made;
  }

  private async build(model: string, dims: number): Promise<void> {
    const name = HnswIndexes.indexName(model, dims);
    const create = `CREATE INDEX CONCURRENTLY ${name} ON embeddings USING hnsw ((embedding::vector(${dims})) vector_cosine_ops)
       WHERE owner_kind = 'memory' AND model = ${literal(model)} AND dims = ${dims}`;
    for (;;) {
      const built = await this.client.session(
        async (c) => {
          if ((await indexState(c, name)) === "valid") return true;
          // One builder per index across processes; the others wait for it to become valid.
          const got = await c.query<{ got: boolean }>(
            "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got",
            [name],
          );
          if (!got.rows[0]?.got) return false;
          try {
            await retryOnLockTimeout(`build the vector index ${name}`, this.client.label, () =>
              buildIndexConcurrently(c, name, create),
            );
            return true;
          } finally {
            await c
              .query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [name])
              .catch(() => undefined);
          }
        },
        // A build over a large table takes as long as it takes (it blocks no reader or writer),
        // and one whose graph fits in memory is many times faster than one that spills.
        { statement_timeout: 0, maintenance_work_mem: "512MB" },
      );
      if (built) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /**
   * The k memories of the scope passing the filter whose vectors are nearest `vector` by cosine,
   * through the HNSW index (approximate). The index gives candidates for the scope (an iterative
   * scan skips other scopes' rows), the memory filter is applied to them, and when it leaves
   * fewer than k the search runs again with four times the candidates, ending in the exact scan.
   */
  async nearest(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    filter: MemoryFilter = {},
    iterativeScan = true,
  ): Promise<VectorHit[]> {
    if (k <= 0) return [];
    const want = Math.floor(k);
    for (let candidates = Math.max(100, 4 * want); ; candidates *= 4) {
      // Without iterative scans a walk ends after `ef_search` rows (at most 1000): past that,
      // only an exact scan can be sure to fill k.
      if (!iterativeScan && candidates > MAX_EF_SEARCH) return this.exact(scope, vector, model, want, filter);
      const { rows, pool } = await this.search(
        scope,
        vector,
        model,
        want,
        candidates,
        filter,
        "",
        iterativeScan,
      );
      // Fewer candidates than asked: the scope has no more vectors, so nothing was missed.
      if (rows.length >= want || pool < candidates) return ranked(rows);
    }
  }

  /** The k nearest admitted memories by a full scan in SQL (no index): exact. */
  private async exact(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    filter: MemoryFilter,
  ): Promise<VectorHit[]> {
    const dims = vector.length;
    const p = new Params();
    const q = p.add(vectorLiteral(vector));
    const where = memoryWhere(p, scope, filter, "m.");
    const rows = await this.client.transaction(async (tx) => {
      await tx.query("SET LOCAL enable_indexscan = off");
      return (
        await tx.query(
          `SELECT m.id, 1 - (e.embedding::vector(${dims}) <=> ${q}::vector(${dims})) AS score
           FROM memories m JOIN embeddings e ON e.tenant = m.tenant AND e.agent = m.agent
             AND e.owner_kind = 'memory' AND e.owner_id = m.id AND e.model = ${literal(model)} AND e.dims = ${dims}
           WHERE ${where}
           ORDER BY e.embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT ${k}`,
          p.values,
        )
      ).rows;
    });
    return ranked(rows);
  }

  /** The plan Postgres picks for `nearest`'s query (EXPLAIN), to see that the HNSW index serves it. */
  async plan(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    iterativeScan = true,
  ): Promise<string> {
    const { rows } = await this.search(
      scope,
      vector,
      model,
      k,
      Math.max(100, 4 * k),
      {},
      "EXPLAIN ",
      iterativeScan,
    );
    return rows.map((r) => String(Object.values(r)[0])).join("\n");
  }

  private async search(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    candidates: number,
    filter: MemoryFilter,
    explain = "",
    iterativeScan = true,
  ): Promise<{ rows: SqlRow[]; pool: number }> {
    const dims = vector.length;
    await this.ensure(model, dims);
    const q = vectorLiteral(vector);
    // The walk over the HNSW index alone; the memory filter is applied to its candidates in a
    // second statement that looks them up by primary key. Joined in one statement, plans built
    // on stale statistics (PGlite has no autovacuum) filtered the scope's whole key range once
    // per candidate, growing with the scope (`npm run bench -- postgres --stores pglite`).
    const walk = `${explain}SELECT owner_id AS id, embedding::vector(${dims}) <=> $1::vector(${dims}) AS distance
        FROM embeddings
        WHERE tenant = $2 AND agent = $3 AND owner_kind = 'memory' AND model = ${literal(model)} AND dims = ${dims}
        ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims}) LIMIT ${candidates}`;
    return this.client.transaction(async (tx) => {
      // The walk keeps as many candidates as asked for; relaxed order lets it go on past rows
      // of other scopes. The iterative scan exists from pgvector 0.8 only: setting it on an older
      // one is an error. SET LOCAL, not set_config(): under Citus the walk runs on a shard, and
      // Citus forwards SET LOCAL statements to the shards' connections (with
      // citus.propagate_set_commands = 'local') but not settings made by a function. One
      // statement each (a round trip each), since PGlite takes one statement per query; the
      // values are numbers and names made here, never input.
      const settings = [
        `SET LOCAL hnsw.ef_search = ${Math.min(MAX_EF_SEARCH, Math.floor(candidates))}`,
        ...(iterativeScan ? ["SET LOCAL hnsw.iterative_scan = relaxed_order"] : []),
        "SET LOCAL enable_seqscan = off",
      ];
      for (const setting of settings) await tx.query(setting);
      const found = (await tx.query(walk, [q, scope.tenant, scope.agent])).rows;
      if (explain) return { rows: found, pool: candidates };
      const distance = new Map(found.map((r) => [String(r.id), Number(r.distance)]));
      const p = new Params();
      const ids = p.add([...distance.keys()]);
      const where = memoryWhere(p, scope, filter);
      const kept = (
        await tx.query<{ id: string }>(
          `SELECT id FROM memories WHERE ${where} AND id = ANY (${ids})`,
          p.values,
        )
      ).rows;
      const rows = kept
        .map((r) => ({ id: r.id, score: 1 - distance.get(r.id)! }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, k);
      return { rows, pool: found.length };
    });
  }
}
