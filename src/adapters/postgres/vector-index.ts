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

/**
 * Makes pgvector ready when it can be: creates the extension and the `embedding` column, and
 * copies memory vectors stored before. False (and nothing changed) where the extension is not
 * available or may not be created here.
 */
export async function enableVectors(client: SqlClient): Promise<boolean> {
  try {
    return await client.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [VECTOR_LOCK]);
      const available = await tx.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
      if (available.rows.length === 0) return false;
      // In public, which every memlane connection has on its search path (after its own schema),
      // so the type and operators resolve for stores of any schema.
      await tx.query("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
      const where = await tx.query<{ schema: string }>(
        "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'",
      );
      // Installed elsewhere before us (an `extensions` schema): not on our path, so not ours to use.
      if (where.rows[0]?.schema !== "public") return false;
      await tx.query("ALTER TABLE embeddings ADD COLUMN IF NOT EXISTS embedding vector");
      await backfill(tx);
      return true;
    });
  } catch {
    // No permission to create the extension (a managed server without it allowed): exact search.
    return false;
  }
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
    const r = missing.rows;
    await tx.query(
      `UPDATE embeddings e SET embedding = u.v::vector
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(tenant, agent, owner_id, model, v)
       WHERE e.tenant = u.tenant AND e.agent = u.agent AND e.owner_kind = 'memory' AND e.owner_id = u.owner_id AND e.model = u.model`,
      [
        r.map((x) => x.tenant),
        r.map((x) => x.agent),
        r.map((x) => x.owner_id),
        r.map((x) => x.model),
        r.map((x) => vectorLiteral(blobToVector(x.vector))),
      ],
    );
  }
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
  ): Promise<VectorHit[]> {
    if (k <= 0) return [];
    const want = Math.floor(k);
    for (let candidates = Math.max(100, 4 * want); ; candidates *= 4) {
      const { rows, pool } = await this.search(scope, vector, model, want, candidates, filter);
      // Fewer candidates than asked: the scope has no more vectors, so nothing was missed.
      if (rows.length >= want || pool < candidates)
        return rows
          .map((r) => ({ id: String(r.id), score: Number(r.score) }))
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    }
  }

  /** The plan Postgres picks for `nearest`'s query (EXPLAIN), to see that the HNSW index serves it. */
  async plan(scope: Scope, vector: Float32Array, model: string, k: number): Promise<string> {
    const { rows } = await this.search(scope, vector, model, k, Math.max(100, 4 * k), {}, "EXPLAIN ");
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
  ): Promise<{ rows: SqlRow[]; pool: number }> {
    const dims = vector.length;
    await this.ensure(model, dims);
    const q = vectorLiteral(vector);
    // The walk over the HNSW index alone; the memory filter is applied to its candidates in a
    // second statement that looks them up by primary key. Joined in one statement, plans built
    // on stale statistics (PGlite has no autovacuum) filtered the scope's whole key range once
    // per candidate: 30 ms at 10K memories, 300 ms at 100K.
    const walk = `${explain}SELECT owner_id AS id, embedding::vector(${dims}) <=> $1::vector(${dims}) AS distance
        FROM embeddings
        WHERE tenant = $2 AND agent = $3 AND owner_kind = 'memory' AND model = ${literal(model)} AND dims = ${dims}
        ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims}) LIMIT ${candidates}`;
    return this.client.transaction(async (tx) => {
      // The walk keeps as many candidates as asked for; relaxed order lets it go on past rows
      // of other scopes.
      await tx.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, candidates)}`);
      await tx.query("SET LOCAL hnsw.iterative_scan = relaxed_order");
      await tx.query("SET LOCAL enable_seqscan = off");
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
