package dev.roundhouse.hub.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskEdit;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.events.Event;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import com.fasterxml.jackson.core.JsonProcessingException;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** The store's queries, over one handle, in either backend's {@link Dialect}. Not thread-safe. */
class SqlReader implements StoreReader {
  static final String TASK_ORDER = "suggested DESC, updated_at DESC, created_at DESC, id DESC";

  final Handle handle;
  final Dialect dialect;

  SqlReader(Handle handle, Dialect dialect) {
    this.handle = handle;
    this.dialect = dialect;
  }

  @Override
  public Optional<Project> project(long id) {
    return handle
        .createQuery("SELECT * FROM projects WHERE id = :id")
        .bind("id", id)
        .map((rs, ctx) -> project(rs))
        .findOne();
  }

  @Override
  public Optional<Project> projectByName(String name) {
    return handle
        .createQuery("SELECT * FROM projects WHERE " + dialect.equalsIgnoringCase("name", "name"))
        .bind("name", name)
        .map((rs, ctx) -> project(rs))
        .findOne();
  }

  @Override
  public List<Project> projects() {
    return handle
        .createQuery("SELECT * FROM projects ORDER BY " + dialect.orderIgnoringCase("name"))
        .map((rs, ctx) -> project(rs))
        .list();
  }

  private static final String SQLITE_TASK_BY_ID = taskById(Dialect.SQLITE);
  private static final String POSTGRESQL_TASK_BY_ID = taskById(Dialect.POSTGRESQL);

  private static String taskById(Dialect dialect) {
    return "SELECT t.*,"
        + " (SELECT " + dialect.jsonArrayOf("tag") + " FROM task_tags WHERE task_id = t.id) AS tag_list,"
        + " (SELECT " + dialect.jsonArrayOf("blocker_id") + " FROM task_blockers WHERE task_id = t.id)"
        + " AS blocker_list"
        + " FROM tasks t WHERE t.id = ?";
  }

  /**
   * One statement, tags and blockers gathered as JSON arrays in it, run on the handle's JDBC connection
   * (inside the read's transaction): this read is on every {@code task_get} (HTTP, MCP, the agents'
   * {@code get_task}), and with three statements through Jdbi's binding and mapping it was a quarter of an
   * MCP {@code tools/call}'s CPU in {@code roundhouse bench mcp}, most of it Jdbi's rather than SQLite's.
   */
  @Override
  public Optional<Task> task(long id) {
    try (PreparedStatement statement = handle.getConnection().prepareStatement(dialect == Dialect.SQLITE ? SQLITE_TASK_BY_ID : POSTGRESQL_TASK_BY_ID)) {
      statement.setLong(1, id);
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(taskRow(rs).toTask(
            List.of(Json.read(rs.getString("tag_list"), String[].class)),
            List.of(Json.read(rs.getString("blocker_list"), Long[].class))));
      }
    } catch (SQLException e) {
      throw new UnableToExecuteStatementException("reading task " + id + " failed", e, null);
    }
  }

  @Override
  public List<Task> tasks(TaskQuery q) {
    StringBuilder sql = new StringBuilder("SELECT * FROM tasks t WHERE 1 = 1");
    if (q.project() != null) {
      sql.append(" AND project_id = :project");
    }
    if (q.statuses() != null && !q.statuses().isEmpty()) {
      sql.append(" AND status IN (<statuses>)");
    }
    if (q.tag() != null) {
      sql.append(" AND EXISTS (SELECT 1 FROM task_tags g WHERE g.task_id = t.id AND g.tag = :tag)");
    }
    if (q.text() != null && !q.text().isBlank()) {
      sql.append(
          " AND (title " + dialect.likeIgnoringCase() + " :text ESCAPE '!' OR coalesce(description, '') "
              + dialect.likeIgnoringCase() + " :text ESCAPE '!')");
    }
    sql.append(" ORDER BY ").append(TASK_ORDER).append(" LIMIT :limit OFFSET :offset");
    Query query = handle.createQuery(sql.toString());
    if (q.project() != null) {
      query.bind("project", q.project());
    }
    if (q.statuses() != null && !q.statuses().isEmpty()) {
      query.bindList("statuses", q.statuses().stream().map(TaskStatus::wireName).toList());
    }
    if (q.tag() != null) {
      query.bind("tag", q.tag());
    }
    if (q.text() != null && !q.text().isBlank()) {
      query.bind("text", "%" + escapeLike(q.text()) + "%");
    }
    query.bind("limit", q.limit()).bind("offset", q.offset());
    return withTagsAndEdges(query);
  }

  @Override
  public List<Long> dueStarts(Instant by, long afterId, int limit) {
    return handle
        .createQuery(
            "SELECT id FROM tasks WHERE start_at IS NOT NULL AND start_at <= :by AND id > :after AND suggested = 0"
                + " AND status NOT IN ('done', 'cancelled') ORDER BY id LIMIT :limit")
        .bind("by", by.toEpochMilli())
        .bind("after", afterId)
        .bind("limit", limit)
        .mapTo(Long.class)
        .list();
  }

  @Override
  public Optional<Instant> nextStartAfter(Instant after) {
    return handle
        .createQuery(
            "SELECT min(start_at) FROM tasks WHERE start_at IS NOT NULL AND start_at > :after"
                + " AND status NOT IN ('done', 'cancelled')")
        .bind("after", after.toEpochMilli())
        .mapTo(Long.class)
        .list()
        .stream()
        .filter(java.util.Objects::nonNull) // min() over no row is one NULL
        .findFirst()
        .map(Instant::ofEpochMilli);
  }

  @Override
  public List<Long> autoStartTasks() {
    return handle
        .createQuery("SELECT id FROM tasks WHERE auto_start = 1 AND status NOT IN ('done', 'cancelled') ORDER BY id")
        .mapTo(Long.class)
        .list();
  }

  @Override
  public Map<Long, List<Long>> blockerEdges(long project) {
    Map<Long, List<Long>> edges = new LinkedHashMap<>();
    handle
        .createQuery(
            "SELECT b.task_id, b.blocker_id FROM task_blockers b JOIN tasks t ON t.id = b.task_id"
                + " WHERE t.project_id = :project ORDER BY b.task_id, b.blocker_id")
        .bind("project", project)
        .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getLong(2)))
        .forEach(e -> edges.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
    return edges;
  }

  @Override
  public List<Tag> tags(Long project) {
    String counted =
        project == null
            ? "SELECT tag, count(*) AS n FROM task_tags GROUP BY tag"
            : "SELECT g.tag, count(*) AS n FROM task_tags g JOIN tasks t ON t.id = g.task_id"
                + " WHERE t.project_id = :project GROUP BY g.tag";
    String sql =
        "SELECT tags.name, tags.color, tags.description, coalesce(c.n, 0) AS n FROM tags"
            + " LEFT JOIN ("
            + counted
            + ") c ON c.tag = tags.name"
            + (project == null ? "" : " WHERE c.n > 0")
            + " ORDER BY tags.name";
    Query query = handle.createQuery(sql);
    if (project != null) {
      query.bind("project", project);
    }
    return query
        .map((rs, ctx) -> new Tag(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)))
        .list();
  }

  @Override
  public Optional<TaskEdit> edit(long id) {
    return handle
        .createQuery("SELECT * FROM task_edits WHERE id = :id")
        .bind("id", id)
        .map((rs, ctx) -> edit(rs))
        .findOne();
  }

  @Override
  public List<TaskEdit> edits(long task, int limit) {
    return handle
        .createQuery("SELECT * FROM task_edits WHERE task_id = :task ORDER BY id DESC LIMIT :limit")
        .bind("task", task)
        .bind("limit", limit)
        .map((rs, ctx) -> edit(rs))
        .list();
  }

  @Override
  public RunnerReads runner() {
    return new SqlRunnerReads(handle, dialect);
  }

  @Override
  public List<Worker> workers() {
    return handle.createQuery("SELECT * FROM workers ORDER BY started_at, id")
        .map((rs, ctx) -> new Worker(rs.getString("id"), rs.getString("host"), rs.getLong("pid"), rs.getString("url"),
            instant(rs, "started_at"), instant(rs, "heartbeat_at")))
        .list();
  }

  @Override
  public ExtensionReads extensions() {
    return new SqlExtensionRecords(handle);
  }

  @Override
  public ScheduleReads schedules() {
    return new SqlSchedules(handle, dialect);
  }

  @Override
  public RetentionReads retention() {
    return new SqlRetention(handle, dialect);
  }

  List<Event> eventsAfter(long after, int limit) {
    return handle
        .createQuery("SELECT * FROM events WHERE seq > :after ORDER BY seq LIMIT :limit")
        .bind("after", after)
        .bind("limit", limit)
        .map((rs, ctx) -> event(rs))
        .list();
  }

  long lastSeq() {
    return handle.createQuery("SELECT coalesce(max(seq), 0) FROM events").mapTo(Long.class).one();
  }

  private List<Task> withTagsAndEdges(Query query) {
    List<TaskRow> rows = query.map((rs, ctx) -> taskRow(rs)).list();
    if (rows.isEmpty()) {
      return List.of();
    }
    List<Long> ids = rows.stream().map(TaskRow::id).toList();
    Map<Long, List<String>> tags = new HashMap<>();
    Map<Long, List<Long>> blockers = new HashMap<>();
    for (int from = 0; from < ids.size(); from += 500) {
      List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + 500));
      handle
          .createQuery("SELECT task_id, tag FROM task_tags WHERE task_id IN (<ids>) ORDER BY tag")
          .bindList("ids", chunk)
          .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getString(2)))
          .forEach(e -> tags.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
      handle
          .createQuery(
              "SELECT task_id, blocker_id FROM task_blockers WHERE task_id IN (<ids>)"
                  + " ORDER BY blocker_id")
          .bindList("ids", chunk)
          .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getLong(2)))
          .forEach(
              e -> blockers.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
    }
    List<Task> tasks = new ArrayList<>(rows.size());
    for (TaskRow row : rows) {
      tasks.add(
          row.toTask(
              tags.getOrDefault(row.id(), List.of()), blockers.getOrDefault(row.id(), List.of())));
    }
    return tasks;
  }

  private record TaskRow(
      long id,
      long projectId,
      String title,
      String description,
      TaskStatus status,
      Priority priority,
      boolean suggested,
      String agent,
      String branch,
      Instant startAt,
      boolean autoStart,
      Actor createdBy,
      Instant createdAt,
      Instant updatedAt) {
    Task toTask(List<String> tags, List<Long> blockedBy) {
      return new Task(
          id, projectId, title, description, status, priority, tags, blockedBy, suggested, agent,
          branch, startAt, autoStart, createdBy, createdAt, updatedAt);
    }
  }

  private static TaskRow taskRow(ResultSet rs) throws SQLException {
    return new TaskRow(
        rs.getLong("id"),
        rs.getLong("project_id"),
        rs.getString("title"),
        rs.getString("description"),
        TaskStatus.parse(rs.getString("status")),
        Priority.parse(rs.getString("priority")),
        rs.getInt("suggested") != 0,
        rs.getString("agent"),
        rs.getString("branch"),
        instant(rs, "start_at"),
        rs.getInt("auto_start") != 0,
        Actor.parse(rs.getString("created_by")),
        instant(rs, "created_at"),
        instant(rs, "updated_at"));
  }

  private static Project project(ResultSet rs) throws SQLException {
    return new Project(
        rs.getLong("id"),
        rs.getString("name"),
        rs.getString("path"),
        rs.getString("default_agent"),
        rs.getString("context"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"));
  }

  private static TaskEdit edit(ResultSet rs) throws SQLException {
    String revertedBy = rs.getString("reverted_by");
    return new TaskEdit(
        rs.getLong("id"),
        rs.getLong("task_id"),
        Actor.parse(rs.getString("actor")),
        rs.getString("field"),
        json(rs.getString("before")),
        json(rs.getString("after")),
        instant(rs, "at"),
        instant(rs, "reverted_at"),
        revertedBy == null ? null : Actor.parse(revertedBy));
  }

  static Event event(ResultSet rs) throws SQLException {
    return new Event(
        rs.getLong("seq"),
        rs.getString("type"),
        instant(rs, "at"),
        Actor.parse(rs.getString("actor")),
        nullableLong(rs, "project_id"),
        nullableLong(rs, "task_id"),
        json(rs.getString("data")));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    long millis = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
  }

  static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  static JsonNode json(String text) {
    if (text == null) {
      return null;
    }
    try {
      return Json.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored JSON is unreadable: " + e.getOriginalMessage(), e);
    }
  }

  private static String escapeLike(String text) {
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
  }
}
