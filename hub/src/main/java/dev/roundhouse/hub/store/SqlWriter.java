package dev.roundhouse.hub.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jdbi.v3.core.Handle;

/** Writes inside the writer's open transaction. Used by the writer thread only. */
final class SqlWriter extends SqlReader implements GroupCommitWriter.StoreWriterContext {
  private final Clock clock;
  private final List<Event> appended;
  private final EventInserter events;

  SqlWriter(Handle handle, Dialect dialect, Clock clock, EventInserter events, List<Event> appended) {
    super(handle, dialect);
    this.clock = clock;
    this.events = events;
    this.appended = appended;
  }

  @Override
  public RunnerWrites runner() {
    return new SqlRunnerWrites(handle, dialect);
  }

  @Override
  public ExtensionWrites extensions() {
    return new SqlExtensionRecords(handle);
  }

  @Override
  public ScheduleWrites schedules() {
    return new SqlSchedules(handle, dialect);
  }

  @Override
  public RetentionWrites retention() {
    return new SqlRetention(handle, dialect);
  }

  @Override
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  @Override
  public Project insertProject(Project p) {
    long id =
        handle
            .createUpdate(
                "INSERT INTO projects (name, path, default_agent, context, created_at, updated_at)"
                    + " VALUES (:name, :path, :agent, :context, :created, :updated)")
            .bind("name", p.name())
            .bind("path", p.path())
            .bind("agent", p.defaultAgent())
            .bind("context", p.context())
            .bind("created", p.createdAt().toEpochMilli())
            .bind("updated", p.updatedAt().toEpochMilli())
            .executeAndReturnGeneratedKeys("id")
            .mapTo(Long.class)
            .one();
    return new Project(
        id, p.name(), p.path(), p.defaultAgent(), p.context(), p.createdAt(), p.updatedAt());
  }

  @Override
  public void updateProject(Project p) {
    handle
        .createUpdate(
            "UPDATE projects SET name = :name, path = :path, default_agent = :agent,"
                + " context = :context, updated_at = :updated WHERE id = :id")
        .bind("id", p.id())
        .bind("name", p.name())
        .bind("path", p.path())
        .bind("agent", p.defaultAgent())
        .bind("context", p.context())
        .bind("updated", p.updatedAt().toEpochMilli())
        .execute();
  }

  @Override
  public Task insertTask(Task t) {
    long id =
        handle
            .createUpdate(
                "INSERT INTO tasks (project_id, title, description, status, priority, suggested,"
                    + " agent, branch, start_at, auto_start, created_by, created_at, updated_at) VALUES"
                    + " (:project, :title, :description, :status, :priority, :suggested, :agent,"
                    + " :branch, :startAt, :autoStart, :createdBy, :created, :updated)")
            .bind("project", t.projectId())
            .bind("title", t.title())
            .bind("description", t.description())
            .bind("status", t.status().wireName())
            .bind("priority", t.priority().wireName())
            .bind("suggested", t.suggested() ? 1 : 0)
            .bind("agent", t.agent())
            .bind("branch", t.branch())
            .bind("startAt", t.startAt() == null ? null : t.startAt().toEpochMilli())
            .bind("autoStart", t.autoStart() ? 1 : 0)
            .bind("createdBy", t.createdBy().toString())
            .bind("created", t.createdAt().toEpochMilli())
            .bind("updated", t.updatedAt().toEpochMilli())
            .executeAndReturnGeneratedKeys("id")
            .mapTo(Long.class)
            .one();
    writeTagsAndEdges(id, t);
    return task(id).orElseThrow();
  }

  @Override
  public void updateTask(Task t) {
    handle
        .createUpdate(
            "UPDATE tasks SET project_id = :project, title = :title, description = :description,"
                + " status = :status, priority = :priority, suggested = :suggested, agent = :agent,"
                + " branch = :branch, start_at = :startAt, auto_start = :autoStart,"
                + " updated_at = :updated WHERE id = :id")
        .bind("id", t.id())
        .bind("project", t.projectId())
        .bind("title", t.title())
        .bind("description", t.description())
        .bind("status", t.status().wireName())
        .bind("priority", t.priority().wireName())
        .bind("suggested", t.suggested() ? 1 : 0)
        .bind("agent", t.agent())
        .bind("branch", t.branch())
        .bind("startAt", t.startAt() == null ? null : t.startAt().toEpochMilli())
        .bind("autoStart", t.autoStart() ? 1 : 0)
        .bind("updated", t.updatedAt().toEpochMilli())
        .execute();
    handle.execute("DELETE FROM task_tags WHERE task_id = ?", t.id());
    handle.execute("DELETE FROM task_blockers WHERE task_id = ?", t.id());
    writeTagsAndEdges(t.id(), t);
  }

  private void writeTagsAndEdges(long id, Task t) {
    for (String tag : t.tags()) {
      handle.execute("INSERT INTO tags (name) VALUES (?) ON CONFLICT DO NOTHING", tag);
      handle.execute("INSERT INTO task_tags (task_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING", id, tag);
    }
    for (long blocker : t.blockedBy()) {
      handle.execute(
          "INSERT INTO task_blockers (task_id, blocker_id) VALUES (?, ?) ON CONFLICT DO NOTHING", id, blocker);
    }
  }

  @Override
  public void deleteTask(long id) {
    handle.execute("DELETE FROM tasks WHERE id = ?", id);
  }

  @Override
  public void upsertTag(String name, String color, String description) {
    handle.execute("INSERT INTO tags (name) VALUES (?) ON CONFLICT DO NOTHING", name);
    if (color != null) {
      handle.execute("UPDATE tags SET color = ? WHERE name = ?", color, name);
    }
    if (description != null) {
      handle.execute("UPDATE tags SET description = ? WHERE name = ?", description, name);
    }
  }

  @Override
  public void renameTag(String from, String to) {
    handle.execute(
        "INSERT INTO tags (name, color, description)"
            + " SELECT ?, color, description FROM tags WHERE name = ? ON CONFLICT DO NOTHING",
        to,
        from);
    handle.execute(
        "INSERT INTO task_tags (task_id, tag) SELECT task_id, ? FROM task_tags WHERE tag = ? ON CONFLICT DO NOTHING",
        to,
        from);
    handle.execute("DELETE FROM task_tags WHERE tag = ?", from);
    handle.execute("DELETE FROM tags WHERE name = ?", from);
  }

  @Override
  public long recordEdit(
      long task, Actor actor, String field, JsonNode before, JsonNode after, Instant at) {
    return handle
        .createUpdate(
            "INSERT INTO task_edits (task_id, actor, field, before, after, at)"
                + " VALUES (:task, :actor, :field, :before, :after, :at)")
        .bind("task", task)
        .bind("actor", actor.toString())
        .bind("field", field)
        .bind("before", before == null ? null : Json.write(before))
        .bind("after", after == null ? null : Json.write(after))
        .bind("at", at.toEpochMilli())
        .executeAndReturnGeneratedKeys("id")
        .mapTo(Long.class)
        .one();
  }

  @Override
  public void markEditReverted(long edit, Actor by, Instant at) {
    handle.execute(
        "UPDATE task_edits SET reverted_at = ?, reverted_by = ? WHERE id = ?",
        at.toEpochMilli(),
        by.toString(),
        edit);
  }

  @Override
  public void putWorker(Worker w) {
    handle.execute("INSERT INTO workers (id, host, pid, url, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, url = excluded.url,"
            + " started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at",
        w.id(), w.host(), w.pid(), w.url(), w.startedAt().toEpochMilli(), w.heartbeatAt().toEpochMilli());
  }

  @Override
  public boolean beat(String worker, String url, Instant at) {
    return handle.execute("UPDATE workers SET heartbeat_at = ?, url = coalesce(?, url) WHERE id = ?",
        at.toEpochMilli(), url, worker) == 1;
  }

  @Override
  public void removeWorker(String worker) {
    handle.execute("DELETE FROM workers WHERE id = ?", worker);
  }

  @Override
  public Event append(EventDraft draft) {
    return append(SerializedDraft.of(draft));
  }

  /** Appends a draft serialized beforehand, off the writer thread. */
  Event append(SerializedDraft serialized) {
    EventDraft draft = serialized.draft();
    Instant at = now();
    long seq = events.insert(serialized, at);
    Event event =
        new Event(seq, draft.type(), at, draft.actor(), draft.projectId(), draft.taskId(), draft.data());
    appended.add(event);
    return event;
  }
}
