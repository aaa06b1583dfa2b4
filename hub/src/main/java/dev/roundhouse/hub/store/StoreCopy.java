package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.core.RoundhouseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * Copies a home's SQLite database into an empty PostgreSQL database: every row of every table, ids and
 * sequence numbers kept, in one PostgreSQL transaction (a failure leaves the target as it was). The SQLite
 * file is migrated to the latest schema first, as a hub opening it would; the target is migrated to the
 * same version, and must hold no project and no event. The worker registry is not copied (its rows name
 * processes of the old home).
 *
 * <p>Stateless; run it with no hub on either database (the caller holds the home's lock; the target's hub
 * lock is taken here).
 */
final class StoreCopy {
  /** Every table with rows to copy, parents before children (the foreign keys). */
  static final List<String> TABLES = List.of("projects", "tasks", "task_tags", "task_blockers", "tags", "task_edits",
      "turns", "turn_queue", "decisions", "permission_rules", "settings_hashes", "generations", "extension_records",
      "runbooks", "schedules", "schedule_runs", "events");
  /** The tables whose id PostgreSQL generates: their identity must continue after the copied ids. */
  static final List<String> IDENTITIES = List.of("projects", "tasks", "task_edits", "turns", "turn_queue", "decisions",
      "permission_rules", "runbooks", "schedules");
  private static final int BATCH = 1000;

  private StoreCopy() {}

  static Map<String, Long> copy(Path sqlite, DatabaseUrl target) {
    if (!Files.isRegularFile(sqlite)) {
      throw new RoundhouseException.InvalidInput("no SQLite database at " + sqlite + " to copy");
    }
    Store.sqlite(sqlite, Clock.systemUTC(), 1, (events, at) -> {}).close(); // brings it to the latest schema
    Connection lock = PostgresConnections.lockDatabase(target);
    try (Connection from = DriverManager.getConnection("jdbc:sqlite:" + sqlite.toAbsolutePath());
        Connection to = PostgresConnections.connect(target, "roundhouse store copy")) {
      Migrations.migrate(Jdbi.open(to), Dialect.POSTGRESQL, Migrations.latest());
      refuseUnlessEmpty(to, target);
      to.setAutoCommit(false);
      Map<String, Long> copied = new LinkedHashMap<>();
      try {
        for (String table : TABLES) {
          copied.put(table, copyTable(from, to, table));
        }
        continueIdentities(to);
        continueEventNumbers(from, to);
        to.commit();
      } catch (SQLException | RuntimeException e) {
        to.rollback();
        throw e;
      }
      return copied;
    } catch (SQLException e) {
      throw new RoundhouseException("store_copy_failed", "copying " + sqlite + " into " + target.redacted()
          + " failed, and the target was left as it was: " + e.getMessage(), e);
    } finally {
      PostgresConnections.closeQuietly(lock);
    }
  }

  private static void refuseUnlessEmpty(Connection to, DatabaseUrl target) throws SQLException {
    try (Statement s = to.createStatement();
        ResultSet rows = s.executeQuery("SELECT (SELECT count(*) FROM projects) + (SELECT count(*) FROM events)")) {
      rows.next();
      if (rows.getLong(1) > 0) {
        throw new RoundhouseException("store_not_empty", "the PostgreSQL database " + target.redacted()
            + " already holds projects or events; copy into an empty database");
      }
    }
  }

  private static long copyTable(Connection from, Connection to, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (Statement s = from.createStatement(); ResultSet info = s.executeQuery("PRAGMA table_info(" + table + ")")) {
      while (info.next()) {
        columns.add(info.getString("name"));
      }
    }
    String list = String.join(", ", columns);
    String marks = String.join(", ", columns.stream().map(c -> "?").toList());
    long rows = 0;
    try (Statement read = from.createStatement();
        ResultSet source = read.executeQuery("SELECT " + list + " FROM " + table);
        PreparedStatement write = to.prepareStatement("INSERT INTO " + table + " (" + list + ") VALUES (" + marks + ")")) {
      while (source.next()) {
        for (int i = 1; i <= columns.size(); i++) {
          write.setObject(i, source.getObject(i));
        }
        write.addBatch();
        if (++rows % BATCH == 0) {
          write.executeBatch();
        }
      }
      write.executeBatch();
    }
    return rows;
  }

  private static void continueIdentities(Connection to) throws SQLException {
    try (Statement s = to.createStatement()) {
      for (String table : IDENTITIES) {
        s.execute("SELECT setval(pg_get_serial_sequence('" + table + "', 'id'), coalesce((SELECT max(id) FROM " + table
            + "), 0) + 1, false)");
      }
    }
  }

  /** The counter continues after the highest number SQLite ever gave out, pruned events' included. */
  private static void continueEventNumbers(Connection from, Connection to) throws SQLException {
    long last;
    try (Statement s = from.createStatement();
        ResultSet rows = s.executeQuery("SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0),"
            + " coalesce((SELECT max(seq) FROM events), 0))")) {
      rows.next();
      last = rows.getLong(1);
    }
    try (PreparedStatement update = to.prepareStatement("UPDATE event_counter SET last = ?")) {
      update.setLong(1, last);
      update.executeUpdate();
    }
  }
}
