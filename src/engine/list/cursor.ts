/**
 * The cursors of paged lists: opaque strings to the caller, the base64url of the list's name, its
 * direction and the key of the last row read (store/sql/list-page.ts pages on that key). A cursor
 * holds no filter: the caller sends the same filter with it.
 */
import { InvalidInputError } from "../../core/errors.js";
import type { ListTable } from "../../store/memory-store.js";

export type ListDirection = "asc" | "desc";

/** The cursor after `key` in a list. */
export function encodeCursor(table: ListTable, direction: ListDirection, key: string[]): string {
  return Buffer.from(JSON.stringify([table, direction, ...key]), "utf8").toString("base64url");
}

const badCursor = (why: string) =>
  new InvalidInputError(`Invalid cursor: ${why}; pass the nextCursor a page of this list gave`, {
    field: "cursor",
  });

/**
 * The key a cursor holds.
 * @throws {InvalidInputError} not a cursor, or one of another list or direction
 */
export function decodeCursor(cursor: string, table: ListTable, direction: ListDirection): string[] {
  let parts: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error("not base64url");
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badCursor("it is not one memlane gave");
  }
  if (!Array.isArray(parts) || parts.length < 3 || !parts.every((p) => typeof p === "string"))
    throw badCursor("it is not one memlane gave");
  const [list, order, ...key] = parts as string[];
  if (list !== table) throw badCursor(`it pages ${list}, not ${table}`);
  if (order !== direction)
    throw badCursor(`it reads the list ${order === "desc" ? "newest" : "oldest"} first`);
  return key;
}
