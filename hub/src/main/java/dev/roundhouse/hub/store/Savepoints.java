package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.RoundhouseException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The savepoint that isolates one write inside a group commit, with its three statements prepared once
 * (they run for every write of every batch). {@code ROLLBACK TO} keeps the savepoint, so it is released
 * on both paths.
 *
 * <p>Not thread-safe: the writer thread's only.
 */
final class Savepoints implements AutoCloseable {
  private final Connection connection;
  private PreparedStatement begin;
  private PreparedStatement release;
  private PreparedStatement rollback;

  Savepoints(Connection connection) {
    this.connection = connection;
  }

  void begin() {
    begin = run(begin, "SAVEPOINT job");
  }

  void release() {
    release = run(release, "RELEASE job");
  }

  void rollback() {
    rollback = run(rollback, "ROLLBACK TO job");
    release();
  }

  private PreparedStatement run(PreparedStatement statement, String sql) {
    try {
      PreparedStatement prepared = statement != null ? statement : connection.prepareStatement(sql);
      prepared.execute();
      return prepared;
    } catch (SQLException e) {
      throw new RoundhouseException("store_error", sql + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    for (PreparedStatement statement : new PreparedStatement[] {begin, release, rollback}) {
      try {
        if (statement != null) {
          statement.close();
        }
      } catch (SQLException e) {
        // the connection closes it anyway
      }
    }
  }
}
