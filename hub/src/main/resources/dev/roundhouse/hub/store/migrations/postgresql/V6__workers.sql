-- PostgreSQL twin of ../V6__workers.sql.
CREATE TABLE workers (
  id           TEXT    PRIMARY KEY,
  host         TEXT    NOT NULL,
  pid          BIGINT  NOT NULL,
  url          TEXT,
  started_at   BIGINT  NOT NULL,
  heartbeat_at BIGINT  NOT NULL
);
