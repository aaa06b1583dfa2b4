-- Work that starts without the user: runbooks (saved prompts), schedules that fire them, the runs those
-- firings made (keyed by schedule and scheduled time, so no firing runs twice), and tasks that start on their
-- own (start_at, already in V1; auto_start when the last blocker ends).
ALTER TABLE tasks ADD COLUMN auto_start INTEGER NOT NULL DEFAULT 0;
-- The deferred-start sweep looks only at tasks that still have a start time.
CREATE INDEX tasks_start_at ON tasks (start_at) WHERE start_at IS NOT NULL;

CREATE TABLE runbooks (
  id              INTEGER PRIMARY KEY,
  project_id      INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name            TEXT    NOT NULL,
  prompt          TEXT    NOT NULL,
  driver          TEXT,
  model           TEXT,
  permission_mode TEXT,
  priority        TEXT    NOT NULL,
  tags            TEXT    NOT NULL DEFAULT '[]',
  send_context    INTEGER NOT NULL DEFAULT 1,
  created_by      TEXT    NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX runbooks_name ON runbooks (project_id, name COLLATE NOCASE);

CREATE TABLE schedules (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name        TEXT    NOT NULL,
  runbook_id  INTEGER REFERENCES runbooks (id) ON DELETE RESTRICT,
  prompt      TEXT,
  recurrence  TEXT    NOT NULL,
  zone        TEXT    NOT NULL,
  missed      TEXT    NOT NULL,
  overlap     TEXT    NOT NULL,
  paused      INTEGER NOT NULL DEFAULT 0,
  next_at     INTEGER,
  created_by  TEXT    NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX schedules_name ON schedules (project_id, name COLLATE NOCASE);
CREATE INDEX schedules_due ON schedules (next_at) WHERE paused = 0 AND next_at IS NOT NULL;

CREATE TABLE schedule_runs (
  schedule_id  INTEGER NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  scheduled_at INTEGER NOT NULL,
  status       TEXT    NOT NULL,
  task_id      INTEGER REFERENCES tasks (id) ON DELETE SET NULL,
  turn_id      INTEGER,
  reason       TEXT,
  fired_at     INTEGER NOT NULL,
  ended_at     INTEGER,
  PRIMARY KEY (schedule_id, scheduled_at)
);
CREATE INDEX schedule_runs_open ON schedule_runs (status) WHERE status IN ('pending', 'queued', 'running');
CREATE INDEX schedule_runs_task ON schedule_runs (task_id) WHERE task_id IS NOT NULL;
