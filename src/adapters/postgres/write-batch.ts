/**
 * One WriteBatch inside the caller's transaction: the SQL core's write plan (store/sql/
 * write-batch.ts) run on Postgres, with pgvector's copy of each memory vector when the table has
 * the column, so the HNSW index can serve it (turn vectors are searched in process).
 */
import type { Scope } from "../../core/types.js";
import type { EmbeddingRecord, WriteBatch } from "../../store/memory-store.js";
import type { Column } from "../../store/sql/program.js";
import { runAsync } from "../../store/sql/program.js";
import { writeBatch } from "../../store/sql/write-batch.js";
import { postgresDialect, postgresRunner } from "./dialect.js";
import type { SqlQueryable } from "./sql-client.js";
import { vectorLiteral } from "./vector-index.js";

const vectorColumn: Column<EmbeddingRecord> = [
  "embedding",
  "vector",
  (x) => (x.ownerKind === "memory" ? vectorLiteral(x.vector) : null),
];

/**
 * Applies the batch in `scope`. `withVectors`: the table has pgvector's `embedding` column.
 * @throws {ConflictError} a duplicate row, a missing parent, a forgotten source turn, a consolidated session
 */
export function applyBatch(
  tx: SqlQueryable,
  scope: Scope,
  b: WriteBatch,
  withVectors: boolean,
): Promise<void> {
  return runAsync(
    writeBatch(postgresDialect, scope, b, { embeddingColumns: withVectors ? [vectorColumn] : [] }),
    postgresRunner(tx),
  );
}
