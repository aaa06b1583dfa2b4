package dev.roundhouse.hub.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Rows a test needs that no store method writes yet, written through a connection of their own to the same
 * database file (SQL stays in the store package, tests included).
 */
public final class StoreTestRows {
  private StoreTestRows() {}

  /** A schedule of {@code project} and one run of it for {@code task} in {@code status}. */
  public static void scheduleRun(Path database, long project, long task, String status, long at) {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath());
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 10000");
      statement.execute("INSERT INTO schedules (project_id, name, prompt, recurrence, zone, missed, overlap, created_by, created_at, updated_at)"
          + " VALUES (" + project + ", 'nightly-" + task + "', 'triage', 'FREQ=DAILY', 'UTC', 'skip', 'skip', 'user', " + at + ", " + at + ")");
      statement.execute("INSERT INTO schedule_runs (schedule_id, scheduled_at, status, task_id, fired_at)"
          + " VALUES (last_insert_rowid(), " + at + ", '" + status + "', " + task + ", " + at + ")");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A database file made the way Roundhouse made them before incremental vacuum: auto_vacuum none, one table. */
  public static void legacyDatabase(Path database) {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath());
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA auto_vacuum = NONE");
      statement.execute("PRAGMA journal_mode = WAL");
      statement.execute("CREATE TABLE legacy_marker (x INTEGER)");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
