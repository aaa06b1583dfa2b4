-- Projects, tasks with their tags and blocked_by edges, and the global event log.
-- Times are epoch milliseconds (UTC): they sort correctly as integers.
CREATE TABLE projects (
  id            INTEGER PRIMARY KEY,
  name          TEXT    NOT NULL,
  path          TEXT    NOT NULL,
  default_agent TEXT,
  context       TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE UNIQUE INDEX projects_name ON projects (name COLLATE NOCASE);

CREATE TABLE tasks (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id  INTEGER NOT NULL REFERENCES projects (id),
  title       TEXT    NOT NULL,
  description TEXT,
  status      TEXT    NOT NULL,
  priority    TEXT    NOT NULL,
  suggested   INTEGER NOT NULL DEFAULT 0,
  agent       TEXT,
  branch      TEXT,
  start_at    INTEGER,
  created_by  TEXT    NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX tasks_board ON tasks (project_id, suggested DESC, updated_at DESC, created_at DESC, id DESC);

CREATE TABLE task_tags (
  task_id INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  tag     TEXT    NOT NULL,
  PRIMARY KEY (task_id, tag)
);
CREATE INDEX task_tags_tag ON task_tags (tag);

CREATE TABLE task_blockers (
  task_id    INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  blocker_id INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  PRIMARY KEY (task_id, blocker_id)
);
CREATE INDEX task_blockers_blocker ON task_blockers (blocker_id);

CREATE TABLE events (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  type       TEXT    NOT NULL,
  at         INTEGER NOT NULL,
  actor      TEXT    NOT NULL,
  project_id INTEGER,
  task_id    INTEGER,
  data       TEXT    NOT NULL
);
CREATE INDEX events_task ON events (task_id, seq);
