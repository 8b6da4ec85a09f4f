/** Keys memlane itself writes into a session's `meta`, named once for the engine and the CLI. */

/** Marks a session a per-turn ingest created: a stopped ingest is finished by running it again. */
export const LEFT_BY_INGEST = "memlane.ingest";
