package dev.roundhouse.hub.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Writes for turns, the queue, decisions and rules, inside the writer's transaction. Not thread-safe. */
final class SqlRunnerWrites extends SqlRunnerReads implements RunnerWrites {

  SqlRunnerWrites(Handle handle, Dialect dialect) {
    super(handle, dialect);
  }

  @Override
  public Turn insertTurn(long task, int generation, String driver, boolean unattended, Actor startedBy, Instant at) {
    long id = handle
        .createUpdate("INSERT INTO turns (task_id, generation, driver, status, unattended, started_by, started_at)"
            + " VALUES (:task, :generation, :driver, 'running', :unattended, :by, :at)")
        .bind("task", task)
        .bind("generation", generation)
        .bind("driver", driver)
        .bind("unattended", unattended ? 1 : 0)
        .bind("by", startedBy.toString())
        .bind("at", at.toEpochMilli())
        .executeAndReturnGeneratedKeys("id")
        .mapTo(Long.class)
        .one();
    return turn(id).orElseThrow();
  }

  @Override
  public void setTurnStatus(long turn, TurnStatus status) {
    handle.execute("UPDATE turns SET status = ? WHERE id = ?", status.wireName(), turn);
  }

  @Override
  public void leaseTurn(long turn, String worker, Instant until) {
    handle.execute("UPDATE turns SET worker_id = ?, lease_expires_at = ? WHERE id = ?", worker, until.toEpochMilli(), turn);
  }

  @Override
  public List<Long> renewLeases(String worker, Instant until) {
    return handle
        .createQuery("UPDATE turns SET lease_expires_at = :until"
            + " WHERE worker_id = :worker AND status IN ('running', 'lingering') RETURNING id")
        .bind("until", until.toEpochMilli())
        .bind("worker", worker)
        .mapTo(Long.class)
        .list();
  }

  @Override
  public void setTurnSession(long turn, String sessionId) {
    handle.execute("UPDATE turns SET session_id = ? WHERE id = ?", sessionId, turn);
  }

  @Override
  public void setTurnIdle(long turn, boolean idle) {
    handle.execute("UPDATE turns SET idle = ? WHERE id = ?", idle ? 1 : 0, turn);
  }

  @Override
  public void endTurn(long turn, TurnStatus status, String reason, Instant at) {
    handle.execute(
        "UPDATE turns SET status = ?, end_reason = ?, ended_at = ?, idle = 0 WHERE id = ?",
        status.wireName(), reason, at.toEpochMilli(), turn);
  }

  @Override
  public QueuedMessage enqueue(long task, String message, String driver, Actor by, Instant at) {
    long id = handle
        .createUpdate("INSERT INTO turn_queue (task_id, message, driver, queued_by, queued_at)"
            + " VALUES (:task, :message, :driver, :by, :at)")
        .bind("task", task)
        .bind("message", message)
        .bind("driver", driver)
        .bind("by", by.toString())
        .bind("at", at.toEpochMilli())
        .executeAndReturnGeneratedKeys("id")
        .mapTo(Long.class)
        .one();
    return new QueuedMessage(id, task, message, driver, by, at);
  }

  @Override
  public Optional<QueuedMessage> dequeue(long task) {
    Optional<QueuedMessage> head = handle
        .createQuery("SELECT * FROM turn_queue WHERE task_id = :task ORDER BY id LIMIT 1")
        .bind("task", task)
        .map((rs, c) -> queued(rs))
        .findOne();
    head.ifPresent(q -> handle.execute("DELETE FROM turn_queue WHERE id = ?", q.id()));
    return head;
  }

  @Override
  public Decision insertDecision(
      String kind, Long project, Long task, Long turn, String title, JsonNode request, List<String> options, Instant at) {
    long id = handle
        .createUpdate("INSERT INTO decisions (kind, project_id, task_id, turn_id, status, title, request, options, created_at)"
            + " VALUES (:kind, :project, :task, :turn, 'pending', :title, :request, :options, :at)")
        .bind("kind", kind)
        .bind("project", project)
        .bind("task", task)
        .bind("turn", turn)
        .bind("title", title)
        .bind("request", Json.write(request))
        .bind("options", Json.write(options))
        .bind("at", at.toEpochMilli())
        .executeAndReturnGeneratedKeys("id")
        .mapTo(Long.class)
        .one();
    return decision(id).orElseThrow();
  }

  @Override
  public void closeDecision(long decision, String status, String answer, String message, Actor by, Instant at) {
    handle.execute(
        "UPDATE decisions SET status = ?, answer = ?, message = ?, closed_by = ?, closed_at = ? WHERE id = ?",
        status, answer, message, by == null ? null : by.toString(), at.toEpochMilli(), decision);
  }

  @Override
  public void insertRule(long project, String tool, String prefix, Actor by, Instant at) {
    handle.execute(
        "INSERT INTO permission_rules (project_id, tool, prefix, created_by, created_at) VALUES (?, ?, ?, ?, ?)"
            + " ON CONFLICT (project_id, tool, prefix) DO NOTHING",
        project, tool, prefix, by.toString(), at.toEpochMilli());
  }

  @Override
  public void putSettingsHash(long project, String driver, String path, String sha256, Instant at) {
    handle.execute(
        "INSERT INTO settings_hashes (project_id, driver, path, sha256, seen_at) VALUES (?, ?, ?, ?, ?)"
            + " ON CONFLICT (project_id, driver, path) DO UPDATE SET sha256 = excluded.sha256, seen_at = excluded.seen_at",
        project, driver, path, sha256, at.toEpochMilli());
  }

  @Override
  public void insertGeneration(long task, int generation, String summary, String summarisedBy, long lastSeq, Instant at) {
    handle.execute(
        "INSERT INTO generations (task_id, generation, summary, summarised_by, last_seq, ended_at) VALUES (?, ?, ?, ?, ?, ?)",
        task, generation, summary, summarisedBy, lastSeq, at.toEpochMilli());
  }

  @Override
  public void setGeneration(long task, int generation) {
    handle.execute("UPDATE tasks SET generation = ? WHERE id = ?", generation, task);
  }
}
