-- Turns, their message queue, decisions (the one approval mechanism), remembered permission rules,
-- settings-file hashes for drift checks, and task generations (task_clear).
ALTER TABLE tasks ADD COLUMN generation INTEGER NOT NULL DEFAULT 1;

CREATE TABLE turns (
  id          INTEGER PRIMARY KEY,
  task_id     INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  generation  INTEGER NOT NULL,
  driver      TEXT    NOT NULL,
  status      TEXT    NOT NULL,
  session_id  TEXT,
  unattended  INTEGER NOT NULL DEFAULT 0,
  idle        INTEGER NOT NULL DEFAULT 0,
  started_by  TEXT    NOT NULL,
  started_at  INTEGER NOT NULL,
  ended_at    INTEGER,
  end_reason  TEXT
);
CREATE INDEX turns_task ON turns (task_id, id DESC);
CREATE INDEX turns_status ON turns (status);

CREATE TABLE turn_queue (
  id        INTEGER PRIMARY KEY,
  task_id   INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  message   TEXT    NOT NULL,
  driver    TEXT,
  queued_by TEXT    NOT NULL,
  queued_at INTEGER NOT NULL
);
CREATE INDEX turn_queue_task ON turn_queue (task_id, id);

CREATE TABLE decisions (
  id          INTEGER PRIMARY KEY,
  kind        TEXT    NOT NULL,
  project_id  INTEGER,
  task_id     INTEGER REFERENCES tasks (id) ON DELETE CASCADE,
  turn_id     INTEGER,
  status      TEXT    NOT NULL,
  title       TEXT    NOT NULL,
  request     TEXT    NOT NULL,
  options     TEXT    NOT NULL,
  answer      TEXT,
  message     TEXT,
  closed_by   TEXT,
  created_at  INTEGER NOT NULL,
  closed_at   INTEGER
);
CREATE INDEX decisions_status ON decisions (status, project_id);

CREATE TABLE permission_rules (
  id         INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  tool       TEXT    NOT NULL,
  prefix     TEXT    NOT NULL DEFAULT '',
  created_by TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (project_id, tool, prefix)
);

CREATE TABLE settings_hashes (
  project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  driver     TEXT    NOT NULL,
  path       TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  seen_at    INTEGER NOT NULL,
  PRIMARY KEY (project_id, driver, path)
);

CREATE TABLE generations (
  task_id       INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  generation    INTEGER NOT NULL,
  summary       TEXT    NOT NULL,
  summarised_by TEXT    NOT NULL,
  last_seq      INTEGER NOT NULL,
  ended_at      INTEGER NOT NULL,
  PRIMARY KEY (task_id, generation)
);
