package dev.roundhouse.hub.store;

import dev.roundhouse.hub.events.EventDraft;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Appends events with one prepared statement that is reused for the life of the writer connection:
 * event appends are the hottest write (every streamed turn event), so they skip per-call statement
 * preparation and read the new sequence number back through {@code RETURNING}.
 *
 * <p>Not thread-safe: used by the writer thread only.
 */
final class EventInserter implements AutoCloseable {
  private final PreparedStatement insert;

  EventInserter(Connection connection, Dialect dialect) throws SQLException {
    this.insert = connection.prepareStatement(dialect == Dialect.SQLITE ? SQLITE : POSTGRESQL);
  }

  private static final String SQLITE =
      "INSERT INTO events (type, at, actor, project_id, task_id, data) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq";

  /**
   * The next number comes from the counter row, updated in this transaction: its row lock makes every other
   * writer's event insert wait until this transaction ends, so events commit in sequence order (a reader
   * never sees seq 11 before 10 has committed), and a rollback gives the number back (no gaps).
   */
  private static final String POSTGRESQL =
      "WITH next AS (UPDATE event_counter SET last = last + 1 RETURNING last)"
          + " INSERT INTO events (seq, type, at, actor, project_id, task_id, data)"
          + " SELECT next.last, ?, ?, ?, ?, ?, ? FROM next RETURNING seq";

  long insert(SerializedDraft serialized, Instant at) {
    EventDraft draft = serialized.draft();
    try {
      insert.setString(1, draft.type());
      insert.setLong(2, at.toEpochMilli());
      insert.setString(3, serialized.actor());
      setNullableLong(4, draft.projectId());
      setNullableLong(5, draft.taskId());
      insert.setString(6, serialized.data());
      try (ResultSet keys = insert.executeQuery()) {
        if (!keys.next()) {
          throw new IllegalStateException("INSERT ... RETURNING gave no sequence number");
        }
        return keys.getLong(1);
      }
    } catch (SQLException e) {
      throw new UnableToExecuteStatementException(e, null);
    }
  }

  private void setNullableLong(int index, Long value) throws SQLException {
    if (value == null) {
      insert.setNull(index, Types.INTEGER);
    } else {
      insert.setLong(index, value);
    }
  }

  @Override
  public void close() {
    try {
      insert.close();
    } catch (SQLException e) {
      // closing the connection closes it anyway
    }
  }
}
