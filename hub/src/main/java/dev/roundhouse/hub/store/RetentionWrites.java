package dev.roundhouse.hub.store;

/** Pruning inside the writer's transaction. Writer thread only. */
public interface RetentionWrites extends RetentionReads {

  /**
   * Deletes the task's events with a sequence number up to {@code upTo}, except {@code task.pruned} markers.
   * Sequence numbers are never reused (the events table is AUTOINCREMENT).
   *
   * @return how many events were deleted
   */
  int deleteTaskEvents(long task, long upTo);
}
