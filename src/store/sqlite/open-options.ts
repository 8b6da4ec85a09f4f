/**
 * How a SQLite file is opened. Kept apart from the opening itself so the store's public types
 * name no type of the driver (a user's project type-checks without the driver's type package).
 */
export interface OpenOptions {
  /** How long to wait for another process's write lock before failing, in ms. */
  busyTimeoutMs?: number;
  readonly?: boolean;
}
