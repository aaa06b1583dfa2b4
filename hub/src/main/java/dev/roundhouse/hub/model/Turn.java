package dev.roundhouse.hub.model;

import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/**
 * One agent run on a task, as stored. Immutable.
 *
 * @param status where the turn is in its life
 * @param idle marked idle: it produced nothing for the idle time while not parked on a human
 */
public record Turn(
    long id,
    long taskId,
    int generation,
    String driver,
    TurnStatus status,
    String sessionId,
    boolean unattended,
    boolean idle,
    Actor startedBy,
    Instant startedAt,
    Instant endedAt,
    String endReason) {

  public boolean active() {
    return status.active();
  }
}
