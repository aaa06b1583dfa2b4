-- The hub processes using this database, each with its heartbeat: what doctor lists, and what turn leases
-- will name. On SQLite it holds the one hub of the home.
CREATE TABLE workers (
  id           TEXT    PRIMARY KEY,
  host         TEXT    NOT NULL,
  pid          INTEGER NOT NULL,
  url          TEXT,
  started_at   INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
