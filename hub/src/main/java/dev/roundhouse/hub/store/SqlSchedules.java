package dev.roundhouse.hub.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Runbooks, schedules and runs in SQLite. Not thread-safe: lives inside one read or write. */
final class SqlSchedules implements ScheduleWrites {
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
  private final Handle handle;
  private final Dialect dialect;

  SqlSchedules(Handle handle, Dialect dialect) {
    this.handle = handle;
    this.dialect = dialect;
  }

  // ---- runbooks ---------------------------------------------------------------------------

  @Override
  public Optional<Runbook> runbook(long id) {
    return handle.createQuery("SELECT * FROM runbooks WHERE id = :id").bind("id", id)
        .map((rs, c) -> runbook(rs)).findOne();
  }

  @Override
  public Optional<Runbook> runbookNamed(long project, String name) {
    return handle.createQuery("SELECT * FROM runbooks WHERE project_id = :project AND " + dialect.equalsIgnoringCase("name", "name"))
        .bind("project", project).bind("name", name)
        .map((rs, c) -> runbook(rs)).findOne();
  }

  @Override
  public List<Runbook> runbooks(Long project) {
    return handle.createQuery("SELECT * FROM runbooks WHERE (:project IS NULL OR project_id = :project)"
            + " ORDER BY " + dialect.orderIgnoringCase("name") + ", id")
        .bind("project", project)
        .map((rs, c) -> runbook(rs)).list();
  }

  @Override
  public Runbook insertRunbook(Runbook r) {
    long id = handle.createUpdate("INSERT INTO runbooks (project_id, name, prompt, driver, model, permission_mode,"
            + " priority, tags, send_context, created_by, created_at, updated_at) VALUES (:project, :name, :prompt,"
            + " :driver, :model, :mode, :priority, :tags, :context, :by, :created, :updated)")
        .bind("project", r.projectId())
        .bind("by", r.createdBy().toString())
        .bind("created", r.createdAt().toEpochMilli())
        .bindMap(runbookFields(r))
        .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    return runbook(id).orElseThrow();
  }

  @Override
  public void updateRunbook(Runbook r) {
    handle.createUpdate("UPDATE runbooks SET name = :name, prompt = :prompt, driver = :driver, model = :model,"
            + " permission_mode = :mode, priority = :priority, tags = :tags, send_context = :context,"
            + " updated_at = :updated WHERE id = :id")
        .bind("id", r.id())
        .bindMap(runbookFields(r))
        .execute();
  }

  private static java.util.Map<String, Object> runbookFields(Runbook r) {
    java.util.Map<String, Object> fields = new java.util.HashMap<>();
    fields.put("name", r.name());
    fields.put("prompt", r.prompt());
    fields.put("driver", r.driver());
    fields.put("model", r.model());
    fields.put("mode", r.permissionMode());
    fields.put("priority", r.priority().wireName());
    fields.put("tags", Json.write(r.tags()));
    fields.put("context", r.sendContext() ? 1 : 0);
    fields.put("updated", r.updatedAt().toEpochMilli());
    return fields;
  }

  @Override
  public void deleteRunbook(long id) {
    handle.execute("DELETE FROM runbooks WHERE id = ?", id);
  }

  // ---- schedules --------------------------------------------------------------------------

  @Override
  public Optional<Schedule> schedule(long id) {
    return handle.createQuery("SELECT * FROM schedules WHERE id = :id").bind("id", id)
        .map((rs, c) -> schedule(rs)).findOne();
  }

  @Override
  public Optional<Schedule> scheduleNamed(long project, String name) {
    return handle.createQuery("SELECT * FROM schedules WHERE project_id = :project AND " + dialect.equalsIgnoringCase("name", "name"))
        .bind("project", project).bind("name", name)
        .map((rs, c) -> schedule(rs)).findOne();
  }

  @Override
  public List<Schedule> schedules(Long project) {
    return handle.createQuery("SELECT * FROM schedules WHERE (:project IS NULL OR project_id = :project)"
            + " ORDER BY " + dialect.orderIgnoringCase("name") + ", id")
        .bind("project", project)
        .map((rs, c) -> schedule(rs)).list();
  }

  @Override
  public List<Schedule> schedulesOf(long runbook) {
    return handle.createQuery("SELECT * FROM schedules WHERE runbook_id = :runbook ORDER BY id")
        .bind("runbook", runbook)
        .map((rs, c) -> schedule(rs)).list();
  }

  @Override
  public List<Schedule> due(Instant now, int limit) {
    return handle.createQuery("SELECT * FROM schedules WHERE paused = 0 AND next_at IS NOT NULL AND next_at <= :now"
            + " ORDER BY next_at, id LIMIT :limit")
        .bind("now", now.toEpochMilli()).bind("limit", limit)
        .map((rs, c) -> schedule(rs)).list();
  }

  @Override
  public Optional<Instant> earliestDue() {
    return handle.createQuery("SELECT min(next_at) AS earliest FROM schedules WHERE paused = 0 AND next_at IS NOT NULL")
        .map((rs, c) -> SqlReader.instant(rs, "earliest")).findOne().filter(java.util.Objects::nonNull);
  }

  @Override
  public int activeSchedules() {
    return handle.createQuery("SELECT count(*) FROM schedules WHERE paused = 0").mapTo(Integer.class).one();
  }

  @Override
  public Schedule insertSchedule(Schedule s) {
    long id = handle.createUpdate("INSERT INTO schedules (project_id, name, runbook_id, prompt, recurrence, zone,"
            + " missed, overlap, paused, next_at, created_by, created_at, updated_at) VALUES (:project, :name,"
            + " :runbook, :prompt, :recurrence, :zone, :missed, :overlap, :paused, :next, :by, :created, :updated)")
        .bind("project", s.projectId())
        .bind("by", s.createdBy().toString())
        .bind("created", s.createdAt().toEpochMilli())
        .bindMap(scheduleFields(s))
        .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    return schedule(id).orElseThrow();
  }

  @Override
  public void updateSchedule(Schedule s) {
    handle.createUpdate("UPDATE schedules SET name = :name, runbook_id = :runbook, prompt = :prompt,"
            + " recurrence = :recurrence, zone = :zone, missed = :missed, overlap = :overlap, paused = :paused,"
            + " next_at = :next, updated_at = :updated WHERE id = :id")
        .bind("id", s.id())
        .bindMap(scheduleFields(s))
        .execute();
  }

  private static java.util.Map<String, Object> scheduleFields(Schedule s) {
    java.util.Map<String, Object> fields = new java.util.HashMap<>();
    fields.put("name", s.name());
    fields.put("runbook", s.runbookId());
    fields.put("prompt", s.prompt());
    fields.put("recurrence", s.recurrence());
    fields.put("zone", s.zone());
    fields.put("missed", s.missed().wireName());
    fields.put("overlap", s.overlap().wireName());
    fields.put("paused", s.paused() ? 1 : 0);
    fields.put("next", s.nextAt() == null ? null : s.nextAt().toEpochMilli());
    fields.put("updated", s.updatedAt().toEpochMilli());
    return fields;
  }

  @Override
  public void setNextAt(long schedule, Instant nextAt) {
    handle.execute("UPDATE schedules SET next_at = ? WHERE id = ?", nextAt == null ? null : nextAt.toEpochMilli(), schedule);
  }

  @Override
  public void deleteSchedule(long id) {
    handle.execute("DELETE FROM schedules WHERE id = ?", id);
  }

  // ---- runs -------------------------------------------------------------------------------

  @Override
  public Optional<ScheduleRun> run(long schedule, Instant scheduledAt) {
    return handle.createQuery("SELECT * FROM schedule_runs WHERE schedule_id = :schedule AND scheduled_at = :at")
        .bind("schedule", schedule).bind("at", scheduledAt.toEpochMilli())
        .map((rs, c) -> run(rs)).findOne();
  }

  @Override
  public List<ScheduleRun> runs(long schedule, int limit) {
    return handle.createQuery("SELECT * FROM schedule_runs WHERE schedule_id = :schedule"
            + " ORDER BY scheduled_at DESC LIMIT :limit")
        .bind("schedule", schedule).bind("limit", limit)
        .map((rs, c) -> run(rs)).list();
  }

  @Override
  public List<ScheduleRun> openRuns() {
    return handle.createQuery("SELECT * FROM schedule_runs WHERE status IN ('pending', 'queued', 'running')"
            + " ORDER BY scheduled_at, schedule_id")
        .map((rs, c) -> run(rs)).list();
  }

  @Override
  public List<ScheduleRun> openRuns(long schedule) {
    return handle.createQuery("SELECT * FROM schedule_runs WHERE schedule_id = :schedule"
            + " AND status IN ('pending', 'queued', 'running') ORDER BY scheduled_at")
        .bind("schedule", schedule)
        .map((rs, c) -> run(rs)).list();
  }

  @Override
  public Optional<ScheduleRun> runOfTask(long task) {
    return handle.createQuery("SELECT * FROM schedule_runs WHERE task_id = :task LIMIT 1").bind("task", task)
        .map((rs, c) -> run(rs)).findOne();
  }

  @Override
  public boolean claim(ScheduleRun r) {
    return handle.createUpdate("INSERT INTO schedule_runs (schedule_id, scheduled_at, status, task_id, turn_id, reason,"
            + " fired_at, ended_at) VALUES (:schedule, :at, :status, :task, :turn, :reason, :fired, :ended)"
            + " ON CONFLICT (schedule_id, scheduled_at) DO NOTHING")
        .bindMap(runFields(r))
        .execute() == 1;
  }

  @Override
  public void updateRun(ScheduleRun r) {
    handle.createUpdate("UPDATE schedule_runs SET status = :status, task_id = :task, turn_id = :turn, reason = :reason,"
            + " fired_at = :fired, ended_at = :ended WHERE schedule_id = :schedule AND scheduled_at = :at")
        .bindMap(runFields(r))
        .execute();
  }

  private static java.util.Map<String, Object> runFields(ScheduleRun r) {
    java.util.Map<String, Object> fields = new java.util.HashMap<>();
    fields.put("schedule", r.scheduleId());
    fields.put("at", r.scheduledAt().toEpochMilli());
    fields.put("status", r.status());
    fields.put("task", r.taskId());
    fields.put("turn", r.turnId());
    fields.put("reason", r.reason());
    fields.put("fired", r.firedAt().toEpochMilli());
    fields.put("ended", r.endedAt() == null ? null : r.endedAt().toEpochMilli());
    return fields;
  }

  // ---- mapping ----------------------------------------------------------------------------

  private static Runbook runbook(ResultSet rs) throws SQLException {
    List<String> tags;
    try {
      tags = Json.mapper().readValue(rs.getString("tags"), STRINGS);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored runbook tags are unreadable", e);
    }
    return new Runbook(
        rs.getLong("id"), rs.getLong("project_id"), rs.getString("name"), rs.getString("prompt"),
        rs.getString("driver"), rs.getString("model"), rs.getString("permission_mode"),
        Priority.parse(rs.getString("priority")), tags, rs.getInt("send_context") != 0,
        Actor.parse(rs.getString("created_by")), SqlReader.instant(rs, "created_at"),
        SqlReader.instant(rs, "updated_at"));
  }

  private static Schedule schedule(ResultSet rs) throws SQLException {
    return new Schedule(
        rs.getLong("id"), rs.getLong("project_id"), rs.getString("name"), SqlReader.nullableLong(rs, "runbook_id"),
        rs.getString("prompt"), rs.getString("recurrence"), rs.getString("zone"),
        MissedPolicy.parse(rs.getString("missed")), OverlapPolicy.parse(rs.getString("overlap")),
        rs.getInt("paused") != 0, SqlReader.instant(rs, "next_at"),
        Actor.parse(rs.getString("created_by")), SqlReader.instant(rs, "created_at"),
        SqlReader.instant(rs, "updated_at"));
  }

  private static ScheduleRun run(ResultSet rs) throws SQLException {
    return new ScheduleRun(
        rs.getLong("schedule_id"), SqlReader.instant(rs, "scheduled_at"), rs.getString("status"),
        SqlReader.nullableLong(rs, "task_id"), SqlReader.nullableLong(rs, "turn_id"), rs.getString("reason"),
        SqlReader.instant(rs, "fired_at"), SqlReader.instant(rs, "ended_at"));
  }
}
