/**
 * Schema versions of the SQLite store, applied in order and recorded in `PRAGMA user_version`.
 * Never edit a released step: add a new one.
 */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE sessions (
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    id TEXT NOT NULL,
    partners TEXT NOT NULL,
    at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open','closed','consolidated','failed')),
    strategy TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (tenant, agent, id)
  ) WITHOUT ROWID;
  CREATE INDEX sessions_by_time ON sessions (tenant, agent, at);

  CREATE TABLE turns (
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    speaker TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant, agent, id),
    UNIQUE (tenant, agent, session_id, idx),
    FOREIGN KEY (tenant, agent, session_id) REFERENCES sessions (tenant, agent, id) ON DELETE CASCADE
  );

  CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    about TEXT NOT NULL,
    text TEXT NOT NULL,
    kind TEXT NOT NULL,
    strategy TEXT NOT NULL,
    observed_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active','superseded','forgotten')),
    invalid_at TEXT,
    session_id TEXT,
    source_turns TEXT NOT NULL DEFAULT '[]',
    attributes TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX memories_by_scope ON memories (tenant, agent, status, about);
  CREATE INDEX memories_by_session ON memories (tenant, agent, session_id);

  CREATE TABLE edges (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    src TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    dst TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    attributes TEXT NOT NULL DEFAULT '{}',
    recorded_at TEXT NOT NULL
  );
  CREATE INDEX edges_by_src ON edges (src);
  CREATE INDEX edges_by_dst ON edges (dst);

  CREATE TABLE embeddings (
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    owner_kind TEXT NOT NULL CHECK (owner_kind IN ('memory','turn')),
    owner_id TEXT NOT NULL,
    model TEXT NOT NULL,
    dims INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (tenant, agent, owner_kind, owner_id, model)
  ) WITHOUT ROWID;

  CREATE TABLE operations (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done','failed')),
    strategy TEXT NOT NULL,
    model TEXT NOT NULL,
    session_id TEXT,
    inputs TEXT NOT NULL DEFAULT 'null',
    outputs TEXT NOT NULL DEFAULT 'null',
    rationale TEXT,
    error TEXT,
    calls INTEGER NOT NULL DEFAULT 0,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms REAL NOT NULL DEFAULT 0,
    at TEXT NOT NULL,
    recorded_at TEXT NOT NULL
  );
  CREATE INDEX operations_by_scope ON operations (tenant, agent, status, recorded_at);
  CREATE INDEX operations_by_session ON operations (tenant, agent, session_id);

  CREATE TABLE operation_refs (
    op_id TEXT NOT NULL REFERENCES operations (id) ON DELETE CASCADE,
    memory_id TEXT NOT NULL,
    PRIMARY KEY (op_id, memory_id)
  ) WITHOUT ROWID;
  CREATE INDEX operation_refs_by_memory ON operation_refs (memory_id);
  `,
  // 2: turn vectors now encode "Speaker: words" (retrieval/turn-embedding-text.ts). Vectors are
  // derived data: the old ones are dropped; turn search embeds missing ones for its index and
  // `memlane reindex` stores them.
  `
  DELETE FROM embeddings WHERE owner_kind = 'turn';
  `,
  // 3: a change version per scope, bumped inside every transaction that changes the scope, so a
  // write in one tenant or agent never invalidates another's search index (in any process).
  `
  CREATE TABLE IF NOT EXISTS scope_versions (
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (tenant, agent)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO scope_versions (tenant, agent, version)
    SELECT tenant, agent, 1 FROM sessions UNION SELECT tenant, agent, 1 FROM memories;
  `,
  // 4: API keys of `memlane serve` (store/sqlite/key-store.ts): each maps to one tenant; only a
  // salted SHA-256 of the key's secret is kept, never the key.
  `
  CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    name TEXT NOT NULL,
    salt TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  ) WITHOUT ROWID;
  `,
  // 5: transcript uploads of `memlane serve` as durable jobs (store/sqlite/ingest-job-store.ts).
  // An unfinished job keeps its validated transcripts as JSON, so another server can take it
  // over when its owner's heartbeat stops; a finished one keeps its reports only. A rowid table:
  // the payloads are large.
  `
  CREATE TABLE IF NOT EXISTS ingest_jobs (
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','running','done','failed')),
    error TEXT,
    queued_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    reports TEXT,
    transcripts TEXT,
    owner TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL,
    PRIMARY KEY (tenant, id)
  );
  CREATE INDEX IF NOT EXISTS ingest_jobs_by_time ON ingest_jobs (tenant, queued_at);
  CREATE INDEX IF NOT EXISTS ingest_jobs_unfinished ON ingest_jobs (queued_at)
    WHERE state IN ('queued','running');
  `,
  // 6: the scope's change log (store/sql/scope-changes.ts): triggers log every row of memories,
  // turns, edges and embeddings that a transaction inserts, updates or deletes, under the scope's
  // version that the transaction moved first, so search indexes update in place from a delta. A
  // scope's log starts now: an index built before reads no delta (horizon) and builds afresh.
  `
  CREATE TABLE IF NOT EXISTS scope_changes (
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    src TEXT,
    dst TEXT,
    PRIMARY KEY (tenant, agent, seq, kind, id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS scope_horizons (
    tenant TEXT NOT NULL,
    agent TEXT NOT NULL,
    horizon INTEGER NOT NULL,
    PRIMARY KEY (tenant, agent)
  ) WITHOUT ROWID;
  INSERT OR REPLACE INTO scope_horizons (tenant, agent, horizon) SELECT tenant, agent, version FROM scope_versions;
  CREATE TRIGGER IF NOT EXISTS memories_logged_insert AFTER INSERT ON memories BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT NEW.tenant, NEW.agent, version, 'memory', NEW.id FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS memories_logged_update AFTER UPDATE ON memories BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT NEW.tenant, NEW.agent, version, 'memory', NEW.id FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS memories_logged_delete AFTER DELETE ON memories BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT OLD.tenant, OLD.agent, version, 'memory', OLD.id FROM scope_versions
      WHERE tenant = OLD.tenant AND agent = OLD.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS turns_logged_insert AFTER INSERT ON turns BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT NEW.tenant, NEW.agent, version, 'turn', NEW.id FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS turns_logged_update AFTER UPDATE ON turns BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT NEW.tenant, NEW.agent, version, 'turn', NEW.id FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS turns_logged_delete AFTER DELETE ON turns BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT OLD.tenant, OLD.agent, version, 'turn', OLD.id FROM scope_versions
      WHERE tenant = OLD.tenant AND agent = OLD.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS edges_logged_insert AFTER INSERT ON edges BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id, src, dst)
      SELECT NEW.tenant, NEW.agent, version, 'edge', NEW.id, NEW.src, NEW.dst FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS edges_logged_update AFTER UPDATE ON edges BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id, src, dst)
      SELECT NEW.tenant, NEW.agent, version, 'edge', NEW.id, NEW.src, NEW.dst FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS edges_logged_delete AFTER DELETE ON edges BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id, src, dst)
      SELECT OLD.tenant, OLD.agent, version, 'edge', OLD.id, OLD.src, OLD.dst FROM scope_versions
      WHERE tenant = OLD.tenant AND agent = OLD.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS embeddings_logged_insert AFTER INSERT ON embeddings BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT NEW.tenant, NEW.agent, version, NEW.owner_kind || '-vector', NEW.owner_id FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS embeddings_logged_update AFTER UPDATE ON embeddings BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT NEW.tenant, NEW.agent, version, NEW.owner_kind || '-vector', NEW.owner_id FROM scope_versions
      WHERE tenant = NEW.tenant AND agent = NEW.agent;
  END;
  CREATE TRIGGER IF NOT EXISTS embeddings_logged_delete AFTER DELETE ON embeddings BEGIN
    INSERT OR IGNORE INTO scope_changes (tenant, agent, seq, kind, id)
      SELECT OLD.tenant, OLD.agent, version, OLD.owner_kind || '-vector', OLD.owner_id FROM scope_versions
      WHERE tenant = OLD.tenant AND agent = OLD.agent;
  END;
  `,
  // 7: memories by time within a scope, so a whole scope's memories are read a page at a time in
  // order (sqlite-store.ts listMemories) without sorting the scope for every page.
  `
  CREATE INDEX IF NOT EXISTS memories_by_time ON memories (tenant, agent, observed_at, recorded_at, id);
  `,
  // 8: operations in log order within a scope, so the newest few are read without the whole log.
  `
  CREATE INDEX IF NOT EXISTS operations_by_time ON operations (tenant, agent, at, recorded_at, id);
  `,
  // 9: the orders of the paged lists (store/sql/list-page.ts), so a page is read from its index
  // after the cursor's key: sessions and turns by conversation time, edges as written, and a
  // scope's memories of one status (active, the default) in their list's order.
  `
  CREATE INDEX IF NOT EXISTS sessions_by_order ON sessions (tenant, agent, at, recorded_at, id);
  CREATE INDEX IF NOT EXISTS turns_by_time ON turns (tenant, agent, at, session_id, idx);
  CREATE INDEX IF NOT EXISTS edges_by_time ON edges (tenant, agent, recorded_at, id);
  CREATE INDEX IF NOT EXISTS memories_by_status_time ON memories (tenant, agent, status, observed_at, recorded_at, id);
  `,
];

/** Written into the file header so we never mistake another program's database for ours. */
export const APPLICATION_ID = 0x4d4c4e45; // "MLNE"
