-- PostgreSQL twin of ../V4__extension_records.sql.
CREATE TABLE extension_records (
  namespace  TEXT COLLATE "C" NOT NULL,
  key        TEXT COLLATE "C" NOT NULL,
  value      TEXT    NOT NULL,
  updated_at BIGINT  NOT NULL,
  PRIMARY KEY (namespace, key)
);
