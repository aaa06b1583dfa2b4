package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.TaskStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The queries and deletes of the retention policy, over one handle. One grouped query per call: the
 * terminal tasks (few, by status) joined to their events through the {@code events_task} index, with the
 * protections as correlated subqueries. Not thread-safe.
 */
final class SqlRetention implements RetentionWrites {
  private static final String MARKER = "task.pruned";

  private static final String FACTS =
      "SELECT t.id, t.project_id, t.title, t.status, t.updated_at,"
          + " sum(CASE WHEN e.type <> '" + MARKER + "' THEN 1 ELSE 0 END) AS events,"
          + " coalesce(sum(CASE WHEN e.type <> '" + MARKER + "'"
          + "   THEN octet_length(e.data) + octet_length(e.type) + octet_length(e.actor) END), 0) AS bytes,"
          + " min(CASE WHEN e.type <> '" + MARKER + "' THEN e.seq END) AS first_seq,"
          + " max(CASE WHEN e.type <> '" + MARKER + "' THEN e.seq END) AS last_seq,"
          + " max(e.at) AS last_event_at,"
          + " (SELECT max(coalesce(u.ended_at, u.started_at)) FROM turns u WHERE u.task_id = t.id) AS last_turn_at,"
          + " (SELECT count(*) FROM turn_queue q WHERE q.task_id = t.id) AS queued,"
          + " EXISTS (SELECT 1 FROM turns u WHERE u.task_id = t.id AND u.status IN ('running', 'lingering')) AS live_turn,"
          + " EXISTS (SELECT 1 FROM decisions d WHERE d.task_id = t.id AND d.status = 'pending') AS pending_decision,"
          + " EXISTS (SELECT 1 FROM schedule_runs r WHERE r.task_id = t.id"
          + "   AND r.status IN ('pending', 'queued', 'running')) AS scheduled_run,"
          + " (SELECT min(x.namespace || ':' || x.key) FROM extension_records x"
          + "   WHERE x.key = 'task/' || t.id OR x.key LIKE 'task/' || t.id || '/%') AS record_reference"
          + " FROM tasks t JOIN events e ON e.task_id = t.id"
          + " WHERE t.status IN ('done', 'cancelled') /*task*/"
          + " GROUP BY t.id"
          + " HAVING sum(CASE WHEN e.type <> '" + MARKER + "' THEN 1 ELSE 0 END) > 0"
          + " ORDER BY t.id";

  private final Handle handle;
  private final Dialect dialect;

  SqlRetention(Handle handle, Dialect dialect) {
    this.handle = handle;
    this.dialect = dialect;
  }

  @Override
  public List<TaskFacts> terminalTasks() {
    return handle.createQuery(FACTS).map((rs, c) -> facts(rs)).list();
  }

  @Override
  public Optional<TaskFacts> terminalTask(long task) {
    return handle
        .createQuery(FACTS.replace("/*task*/", "AND t.id = :task"))
        .bind("task", task)
        .map((rs, c) -> facts(rs))
        .findOne();
  }

  @Override
  public String autoVacuum() {
    if (dialect == Dialect.POSTGRESQL) {
      return "autovacuum"; // the server's own background vacuum; compact() runs one by hand
    }
    // The pragma answers from the connection's cached header, which a read refreshes: after another
    // connection's VACUUM changed the mode, a pooled reader would otherwise still report the old one.
    handle.createQuery("SELECT count(*) FROM sqlite_master").mapTo(Integer.class).one();
    int mode = handle.createQuery("PRAGMA auto_vacuum").mapTo(Integer.class).one();
    return switch (mode) {
      case 1 -> "full";
      case 2 -> "incremental";
      default -> "none";
    };
  }

  @Override
  public int deleteTaskEvents(long task, long upTo) {
    return handle
        .createUpdate("DELETE FROM events WHERE task_id = :task AND seq <= :upTo AND type <> '" + MARKER + "'")
        .bind("task", task)
        .bind("upTo", upTo)
        .execute();
  }

  private static TaskFacts facts(ResultSet rs) throws SQLException {
    return new TaskFacts(
        rs.getLong("id"),
        rs.getLong("project_id"),
        rs.getString("title"),
        TaskStatus.parse(rs.getString("status")),
        SqlReader.instant(rs, "updated_at"),
        rs.getLong("events"),
        rs.getLong("bytes"),
        rs.getLong("first_seq"),
        rs.getLong("last_seq"),
        SqlReader.instant(rs, "last_event_at"),
        SqlReader.instant(rs, "last_turn_at"),
        rs.getInt("queued"),
        rs.getBoolean("live_turn"),
        rs.getBoolean("pending_decision"),
        rs.getBoolean("scheduled_run"),
        rs.getString("record_reference"));
  }
}
