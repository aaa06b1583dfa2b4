package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.TaskStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the retention policy needs to know about finished tasks: their events and everything that may still
 * hold on to them. The store reports facts; the policy ({@code hub.retention}) decides. Not thread-safe: used
 * by the thread that was handed it.
 */
public interface RetentionReads {

  /** Facts about every terminal task (done or cancelled) that still has events other than prune markers. */
  List<TaskFacts> terminalTasks();

  /** The same facts about one task, when it is terminal and has such events. */
  Optional<TaskFacts> terminalTask(long task);

  /**
   * How freed space is given back: SQLite's {@code PRAGMA auto_vacuum} ({@code none}, {@code full} or {@code
   * incremental}), or {@code autovacuum} on PostgreSQL (the server's own).
   */
  String autoVacuum();

  /**
   * A terminal task's events and what still holds on to it.
   *
   * @param events how many of its events are not {@code task.pruned} markers (what a prune removes)
   * @param bytes the stored size of those events (payload, type and actor), roughly what a prune frees
   * @param firstSeq the lowest sequence number among them
   * @param lastSeq the highest sequence number among them
   * @param lastEventAt when its newest event (markers included) was recorded
   * @param lastTurnAt when its newest turn ended (or started, while it runs); null without turns
   * @param queued messages waiting in its turn queue
   * @param liveTurn a turn of it is running or lingering
   * @param pendingDecision a decision on it is pending
   * @param scheduledRun a schedule run of it is pending, queued or running
   * @param recordReference a capability module's record kept for the task ({@code namespace:task/<id>}, such
   *     as the workspace's record of the task's worktree), or null
   */
  record TaskFacts(
      long task,
      long projectId,
      String title,
      TaskStatus status,
      Instant updatedAt,
      long events,
      long bytes,
      long firstSeq,
      long lastSeq,
      Instant lastEventAt,
      Instant lastTurnAt,
      int queued,
      boolean liveTurn,
      boolean pendingDecision,
      boolean scheduledRun,
      String recordReference) {

    /** The newest of its update, its last event and its last turn. */
    public Instant lastActivity() {
      Instant last = updatedAt;
      if (lastEventAt != null && lastEventAt.isAfter(last)) {
        last = lastEventAt;
      }
      if (lastTurnAt != null && lastTurnAt.isAfter(last)) {
        last = lastTurnAt;
      }
      return last;
    }
  }
}
