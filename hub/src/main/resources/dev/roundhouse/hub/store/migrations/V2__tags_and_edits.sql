-- Tag presentation (color, description) and the field-by-field edit history that task_revert_edit undoes.
CREATE TABLE tags (
  name        TEXT PRIMARY KEY,
  color       TEXT,
  description TEXT
);
INSERT INTO tags (name) SELECT DISTINCT tag FROM task_tags;

CREATE TABLE task_edits (
  id          INTEGER PRIMARY KEY,
  task_id     INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  actor       TEXT    NOT NULL,
  field       TEXT    NOT NULL,
  before      TEXT,
  after       TEXT,
  at          INTEGER NOT NULL,
  reverted_at INTEGER,
  reverted_by TEXT
);
CREATE INDEX task_edits_task ON task_edits (task_id, id DESC);
