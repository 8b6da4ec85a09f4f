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
import type { SqlClient, SqlQueryable, SqlRow } from "./sql-client.js";

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
 * starting beside a long-running reader do not queue behind it; the extension, the column and
 * the copy of vectors stored before are made once, by the first process that finds them missing,
 * under an advisory lock.
 */
export async function enableVectors(client: SqlClient): Promise<PgvectorAbilities | null> {
  try {
    const ready = await probe(client);
    if (ready !== undefined) return ready;
    return await client.transaction(async (tx) => {
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
      await backfill(tx);
      return abilities;
    });
  } catch {
    // No permission to create the extension (a managed server without it allowed): exact search.
    return null;
  }
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

async function backfill(tx: SqlQueryable): Promise<void> {
  for (;;) {
    const missing = await tx.query<{
      tenant: string;
      agent: string;
      owner_id: string;
      model: string;
      vector: Uint8Array;
    }>(
      `SELECT tenant, agent, owner_id, model, vector FROM embeddings
       WHERE owner_kind = 'memory' AND embedding IS NULL LIMIT ${BACKFILL_BATCH}`,
    );
    if (missing.rows.length === 0) return;
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
         WHERE e.tenant = $1 AND e.agent = u.agent AND e.owner_kind = 'memory' AND e.owner_id = u.owner_id AND e.model = u.model`,
        [
          tenant,
          r.map((x) => x.agent),
          r.map((x) => x.owner_id),
          r.map((x) => x.model),
          r.map((x) => vectorLiteral(blobToVector(x.vector))),
        ],
      );
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

/**
 * The HNSW indexes of one store: one per embedding model and width, a partial index on the
 * `vector` column cast to that width, made the first time that model is searched.
 */
export class HnswIndexes {
  private readonly made = new Map<string, Promise<void>>();

  constructor(private readonly client: SqlClient) {}

  /** Creates the index for `model` at `dims` unless it exists (in this or another process). */
  ensure(model: string, dims: number): Promise<void> {
    const key = `${model}\u0000${dims}`;
    let made = this.made.get(key);
    if (!made) {
      const name = `embeddings_hnsw_${createHash("sha1").update(key).digest("hex").slice(0, 12)}`;
      made = this.client.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1)", [VECTOR_LOCK]);
        // A build whose graph fits in memory is many times faster than one that spills.
        await tx.query("SET LOCAL maintenance_work_mem = '512MB'");
        await tx.query(
          `CREATE INDEX IF NOT EXISTS ${name} ON embeddings USING hnsw ((embedding::vector(${dims})) vector_cosine_ops)
           WHERE owner_kind = 'memory' AND model = ${literal(model)} AND dims = ${dims}`,
        );
      });
      made.catch(() => this.made.delete(key));
      this.made.set(key, made);
    }
    return made;
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
