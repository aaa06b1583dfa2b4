package dev.roundhouse.hub.store;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.PermissionRule;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.model.Generation;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import com.fasterxml.jackson.core.JsonProcessingException;

/** The SQLite queries for turns, the queue, decisions and rules, over one handle. Not thread-safe. */
class SqlRunnerReads implements RunnerReads {
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

  final Handle handle;
  final Dialect dialect;

  SqlRunnerReads(Handle handle, Dialect dialect) {
    this.handle = handle;
    this.dialect = dialect;
  }

  @Override
  public Optional<Turn> turn(long id) {
    return handle.createQuery("SELECT * FROM turns WHERE id = :id").bind("id", id).map((rs, c) -> turn(rs)).findOne();
  }

  @Override
  public Optional<Turn> activeTurn(long task) {
    return handle
        .createQuery("SELECT * FROM turns WHERE task_id = :task AND status IN ('running', 'lingering') ORDER BY id DESC LIMIT 1")
        .bind("task", task)
        .map((rs, c) -> turn(rs))
        .findOne();
  }

  @Override
  public List<Turn> turns(long task, int limit) {
    return handle
        .createQuery("SELECT * FROM turns WHERE task_id = :task ORDER BY id DESC LIMIT :limit")
        .bind("task", task)
        .bind("limit", limit)
        .map((rs, c) -> turn(rs))
        .list();
  }

  @Override
  public List<Turn> activeTurns() {
    return handle
        .createQuery("SELECT * FROM turns WHERE status IN ('running', 'lingering') ORDER BY id")
        .map((rs, c) -> turn(rs))
        .list();
  }

  @Override
  public List<Turn> orphanedTurns(String worker, java.time.Instant now) {
    return handle
        .createQuery("SELECT * FROM turns WHERE status IN ('running', 'lingering')"
            + " AND (worker_id IS NULL OR (worker_id <> :worker AND (lease_expires_at IS NULL OR lease_expires_at < :now)))"
            + " ORDER BY id")
        .bind("worker", worker)
        .bind("now", now.toEpochMilli())
        .map((rs, c) -> turn(rs))
        .list();
  }

  @Override
  public Optional<String> turnWorker(long turn) {
    return handle.createQuery("SELECT worker_id FROM turns WHERE id = :turn")
        .bind("turn", turn).mapTo(String.class).findOne().filter(java.util.Objects::nonNull);
  }

  @Override
  public List<QueuedMessage> queue(long task) {
    return handle
        .createQuery("SELECT * FROM turn_queue WHERE task_id = :task ORDER BY id")
        .bind("task", task)
        .map((rs, c) -> queued(rs))
        .list();
  }

  @Override
  public Optional<Decision> decision(long id) {
    return handle.createQuery("SELECT * FROM decisions WHERE id = :id").bind("id", id).map((rs, c) -> decision(rs)).findOne();
  }

  @Override
  public List<Decision> decisions(boolean pendingOnly, Long project, Long task, int limit) {
    StringBuilder sql = new StringBuilder("SELECT * FROM decisions WHERE 1 = 1");
    if (pendingOnly) {
      sql.append(" AND status = 'pending'");
    }
    if (project != null) {
      sql.append(" AND project_id = :project");
    }
    if (task != null) {
      sql.append(" AND task_id = :task");
    }
    sql.append(" ORDER BY id DESC LIMIT :limit");
    Query query = handle.createQuery(sql.toString()).bind("limit", limit);
    if (project != null) {
      query.bind("project", project);
    }
    if (task != null) {
      query.bind("task", task);
    }
    return query.map((rs, c) -> decision(rs)).list();
  }

  @Override
  public Map<Long, Integer> pendingCounts() {
    Map<Long, Integer> counts = new LinkedHashMap<>();
    handle
        .createQuery("SELECT project_id, count(*) FROM decisions WHERE status = 'pending' GROUP BY project_id ORDER BY project_id")
        .map((rs, c) -> Map.entry(SqlReader.nullableLong(rs, "project_id") == null ? -1L : rs.getLong(1), rs.getInt(2)))
        .forEach(e -> counts.put(e.getKey() == -1L ? null : e.getKey(), e.getValue()));
    return counts;
  }

  @Override
  public List<TurnCount> turnCounts() {
    return handle.createQuery("SELECT driver, status, count(*) AS n FROM turns GROUP BY driver, status ORDER BY driver, status")
        .map((rs, c) -> new TurnCount(rs.getString("driver"), rs.getString("status"), rs.getLong("n")))
        .list();
  }

  @Override
  public int queuedMessages() {
    return handle.createQuery("SELECT count(*) FROM turn_queue").mapTo(Integer.class).one();
  }

  @Override
  public List<PermissionRule> rules(long project) {
    return handle
        .createQuery("SELECT * FROM permission_rules WHERE project_id = :project ORDER BY id")
        .bind("project", project)
        .map((rs, c) -> new PermissionRule(
            rs.getLong("id"), rs.getLong("project_id"), rs.getString("tool"), rs.getString("prefix"),
            Actor.parse(rs.getString("created_by")), SqlReader.instant(rs, "created_at")))
        .list();
  }

  @Override
  public Map<String, String> settingsHashes(long project, String driver) {
    Map<String, String> hashes = new LinkedHashMap<>();
    handle
        .createQuery("SELECT path, sha256 FROM settings_hashes WHERE project_id = :project AND driver = :driver ORDER BY path")
        .bind("project", project)
        .bind("driver", driver)
        .map((rs, c) -> Map.entry(rs.getString(1), rs.getString(2)))
        .forEach(e -> hashes.put(e.getKey(), e.getValue()));
    return hashes;
  }

  @Override
  public int generation(long task) {
    return handle
        .createQuery("SELECT generation FROM tasks WHERE id = :task")
        .bind("task", task)
        .mapTo(Integer.class)
        .findOne()
        .orElse(1);
  }

  @Override
  public List<Generation> generations(long task) {
    return handle
        .createQuery("SELECT * FROM generations WHERE task_id = :task ORDER BY generation")
        .bind("task", task)
        .map((rs, c) -> new Generation(
            rs.getLong("task_id"), rs.getInt("generation"), rs.getString("summary"), rs.getString("summarised_by"),
            rs.getLong("last_seq"), SqlReader.instant(rs, "ended_at")))
        .list();
  }

  @Override
  public List<Event> taskEvents(long task, long after, long upTo, int limit, boolean transcriptOnly) {
    return handle
        .createQuery("SELECT * FROM events WHERE task_id = :task AND seq > :after AND seq <= :upTo"
            + (transcriptOnly ? " AND (type LIKE 'turn.%' OR type LIKE 'decision.%' OR type = 'task.pruned')" : "")
            + " ORDER BY seq LIMIT :limit")
        .bind("task", task)
        .bind("after", after)
        .bind("upTo", upTo)
        .bind("limit", limit)
        .map((rs, c) -> SqlReader.event(rs))
        .list();
  }

  @Override
  public List<Event> turnEvents(long task, long turn, Collection<String> types, int limit) {
    if (types.isEmpty()) {
      return List.of();
    }
    return handle
        .createQuery("SELECT * FROM events WHERE task_id = :task AND type IN (<types>)"
            + " AND " + dialect.jsonLong("data", "turn") + " = :turn ORDER BY seq LIMIT :limit")
        .bind("task", task)
        .bindList("types", List.copyOf(types))
        .bind("turn", turn)
        .bind("limit", limit)
        .map((rs, c) -> SqlReader.event(rs))
        .list();
  }

  private static Turn turn(ResultSet rs) throws SQLException {
    return new Turn(
        rs.getLong("id"),
        rs.getLong("task_id"),
        rs.getInt("generation"),
        rs.getString("driver"),
        TurnStatus.parse(rs.getString("status")),
        rs.getString("session_id"),
        rs.getInt("unattended") != 0,
        rs.getInt("idle") != 0,
        Actor.parse(rs.getString("started_by")),
        SqlReader.instant(rs, "started_at"),
        SqlReader.instant(rs, "ended_at"),
        rs.getString("end_reason"));
  }

  static QueuedMessage queued(ResultSet rs) throws SQLException {
    return new QueuedMessage(
        rs.getLong("id"), rs.getLong("task_id"), rs.getString("message"), rs.getString("driver"),
        Actor.parse(rs.getString("queued_by")), SqlReader.instant(rs, "queued_at"));
  }

  private static Decision decision(ResultSet rs) throws SQLException {
    String closedBy = rs.getString("closed_by");
    List<String> options;
    try {
      options = Json.mapper().readValue(rs.getString("options"), STRINGS);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored decision options are unreadable", e);
    }
    return new Decision(
        rs.getLong("id"),
        rs.getString("kind"),
        SqlReader.nullableLong(rs, "project_id"),
        SqlReader.nullableLong(rs, "task_id"),
        SqlReader.nullableLong(rs, "turn_id"),
        rs.getString("status"),
        rs.getString("title"),
        SqlReader.json(rs.getString("request")),
        options,
        rs.getString("answer"),
        rs.getString("message"),
        closedBy == null ? null : Actor.parse(closedBy),
        SqlReader.instant(rs, "created_at"),
        SqlReader.instant(rs, "closed_at"));
  }
}
