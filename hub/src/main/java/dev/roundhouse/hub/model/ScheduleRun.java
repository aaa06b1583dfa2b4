package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.time.Instant;

/**
 * One firing of a schedule, keyed by the schedule and the time it was due: the key is what makes a firing run
 * at most once, whatever restarts, clock jumps or second workers happen. Immutable.
 */
public record ScheduleRun(
    long scheduleId,
    @JsonPropertyDescription("When the firing was due") Instant scheduledAt,
    @JsonPropertyDescription("pending (task minted, turn starting), queued (behind the previous run), running,"
        + " skipped, or how it ended: done, failed, denied, needed_person") String status,
    @JsonPropertyDescription("The task the firing minted") Long taskId,
    Long turnId,
    @JsonPropertyDescription("Why it was skipped or how it ended") String reason,
    @JsonPropertyDescription("When the scheduler acted on it") Instant firedAt,
    Instant endedAt) {

  public static final String PENDING = "pending";
  public static final String QUEUED = "queued";
  public static final String RUNNING = "running";
  public static final String SKIPPED = "skipped";

  /** Pending, queued or running: a run that has not ended. */
  public boolean open() {
    return status.equals(PENDING) || status.equals(QUEUED) || status.equals(RUNNING);
  }
}
