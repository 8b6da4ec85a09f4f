/**
 * A page of one of an agent's lists as the facade hands it out: the store's keyset page
 * (store/sql/list-page.ts) with its key turned into an opaque cursor. Every list answers in one
 * shape, `{ items, nextCursor }`.
 */
import { UnsupportedError } from "../../core/errors.js";
import type { Edge, Memory, MemoryFilter, Operation, Scope, Session, Turn } from "../../core/types.js";
import type {
  EdgeListFilter,
  ListRequest,
  ListTable,
  MemoryStore,
  OperationListFilter,
  SessionListFilter,
  TurnListFilter,
} from "../../store/memory-store.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { DEFAULT_LIST_PAGE } from "./list-inputs.js";

/** One page of a list: its rows, and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

interface Lists {
  memories: { filter: MemoryFilter; row: Memory };
  sessions: { filter: SessionListFilter; row: Session };
  turns: { filter: TurnListFilter; row: Turn };
  operations: { filter: OperationListFilter; row: Operation };
  edges: { filter: EdgeListFilter; row: Edge };
}

/**
 * The page of `table` that `page` asks for (the first, or the one after its cursor).
 * @throws {InvalidInputError} a cursor memlane did not give for this list and order
 * @throws {UnsupportedError} the store cannot page
 */
export async function listPage<T extends ListTable>(
  store: MemoryStore,
  scope: Scope,
  table: T,
  filter: Lists[T]["filter"],
  page: { limit?: number; cursor?: string; newest?: boolean },
): Promise<Page<Lists[T]["row"]>> {
  if (!store.listPage) throw new UnsupportedError("This store cannot page its lists (MemoryStore.listPage)");
  const direction = page.newest ? "desc" : "asc";
  const after = page.cursor === undefined ? null : decodeCursor(page.cursor, table, direction);
  const request = {
    table,
    filter,
    after,
    limit: page.limit ?? DEFAULT_LIST_PAGE,
    newest: direction === "desc",
  } as ListRequest;
  const found = await store.listPage(scope, request);
  return {
    items: found.rows as Lists[T]["row"][],
    nextCursor: found.next ? encodeCursor(table, direction, found.next) : null,
  };
}
