package dev.roundhouse.hub.model;

import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/**
 * One agent run on a task, as stored. Immutable.
 *
 * @param status running, lingering (model done, session open), completed, failed, stopped, interrupted
 *     (the hub died under it) or declined (settings drift was declined before the agent started)
 * @param idle marked idle: it produced nothing for the idle time while not parked on a human
 */
public record Turn(
    long id,
    long taskId,
    int generation,
    String driver,
    String status,
    String sessionId,
    boolean unattended,
    boolean idle,
    Actor startedBy,
    Instant startedAt,
    Instant endedAt,
    String endReason) {

  public static final String RUNNING = "running";
  public static final String LINGERING = "lingering";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";
  public static final String STOPPED = "stopped";
  public static final String INTERRUPTED = "interrupted";
  public static final String DECLINED = "declined";

  public boolean active() {
    return status.equals(RUNNING) || status.equals(LINGERING);
  }
}
