-- Durable records of capability modules (the workspace's worktrees and reviews, the services' registry):
-- JSON values by (namespace, key), so no module needs SQL of its own.
CREATE TABLE extension_records (
  namespace  TEXT    NOT NULL,
  key        TEXT    NOT NULL,
  value      TEXT    NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;
