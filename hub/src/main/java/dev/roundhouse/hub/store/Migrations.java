package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Versioned, forward-only schema migrations, one script set per {@link Dialect} ({@code migrations/} for
 * SQLite, {@code migrations/postgresql/} for PostgreSQL), numbered alike: version N is the N-th script below
 * in either. SQLite keeps the version in {@code PRAGMA user_version}; PostgreSQL in the one-row table {@code
 * roundhouse_schema}. Each script runs in its own transaction together with the version bump, so a crash
 * mid-migration leaves the previous version intact.
 *
 * <p>On PostgreSQL several hub workers may start at once against one database: the migration runs under a
 * session advisory lock, so one worker migrates while the others wait and then find nothing to do.
 *
 * <p>Add a migration by appending a script to both sets; never edit one that has shipped.
 */
final class Migrations {
  static final List<String> SCRIPTS =
      List.of("V1__core.sql", "V2__tags_and_edits.sql", "V3__turns_and_decisions.sql", "V4__extension_records.sql",
          "V5__schedules_and_runs.sql", "V6__workers.sql", "V7__turn_leases.sql");

  /** The advisory lock key PostgreSQL workers migrate under (the bytes of "RHSCHEMA"). */
  static final long POSTGRESQL_MIGRATION_LOCK = 0x5248534348454D41L;

  private Migrations() {}

  static int latest() {
    return SCRIPTS.size();
  }

  static int version(Handle handle) {
    return version(handle, Dialect.SQLITE);
  }

  static int version(Handle handle, Dialect dialect) {
    if (dialect == Dialect.SQLITE) {
      return handle.createQuery("PRAGMA user_version").mapTo(Integer.class).one();
    }
    boolean exists = handle.createQuery("SELECT to_regclass('roundhouse_schema') IS NOT NULL").mapTo(Boolean.class).one();
    return exists ? handle.createQuery("SELECT version FROM roundhouse_schema").mapTo(Integer.class).one() : 0;
  }

  /** Migrates to the latest version. */
  static int migrate(Handle handle) {
    return migrate(handle, Dialect.SQLITE, latest());
  }

  static int migrate(Handle handle, int target) {
    return migrate(handle, Dialect.SQLITE, target);
  }

  /** Migrates up to {@code target}; refuses a database newer than this build knows. */
  static int migrate(Handle handle, Dialect dialect, int target) {
    if (dialect == Dialect.SQLITE) {
      return migrateLocked(handle, dialect, target);
    }
    handle.createQuery("SELECT pg_advisory_lock(:key)").bind("key", POSTGRESQL_MIGRATION_LOCK).mapToMap().one();
    try {
      handle.execute("CREATE TABLE IF NOT EXISTS roundhouse_schema (version INTEGER NOT NULL)");
      handle.execute("INSERT INTO roundhouse_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM roundhouse_schema)");
      return migrateLocked(handle, dialect, target);
    } finally {
      handle.createQuery("SELECT pg_advisory_unlock(:key)").bind("key", POSTGRESQL_MIGRATION_LOCK).mapToMap().one();
    }
  }

  private static int migrateLocked(Handle handle, Dialect dialect, int target) {
    int current = version(handle, dialect);
    if (current > latest()) {
      throw new RoundhouseException(
          "schema_too_new",
          "the database is at schema version "
              + current
              + " but this Roundhouse knows versions up to "
              + latest()
              + ": run a newer Roundhouse");
    }
    for (int next = current + 1; next <= target; next++) {
      String script = load(dialect, SCRIPTS.get(next - 1));
      int version = next;
      handle.useTransaction(
          tx -> {
            tx.createScript(script).execute();
            if (dialect == Dialect.SQLITE) {
              tx.execute("PRAGMA user_version = " + version);
            } else {
              tx.execute("UPDATE roundhouse_schema SET version = ?", version);
            }
          });
    }
    return version(handle, dialect);
  }

  private static String load(Dialect dialect, String name) {
    String path = (dialect == Dialect.SQLITE ? "migrations/" : "migrations/postgresql/") + name;
    try (InputStream in = Migrations.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("migration script missing from the jar: " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
