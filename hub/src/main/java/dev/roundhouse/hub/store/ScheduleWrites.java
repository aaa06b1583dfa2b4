package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import java.time.Instant;

/** Writes for runbooks, schedules and runs, inside the writer's transaction. Not thread-safe. */
public interface ScheduleWrites extends ScheduleReads {
  /** Inserts {@code runbook} (its id is ignored) and returns it with its id. */
  Runbook insertRunbook(Runbook runbook);

  void updateRunbook(Runbook runbook);

  void deleteRunbook(long id);

  /** Inserts {@code schedule} (its id is ignored) and returns it with its id. */
  Schedule insertSchedule(Schedule schedule);

  void updateSchedule(Schedule schedule);

  void setNextAt(long schedule, Instant nextAt);

  void deleteSchedule(long id);

  /**
   * Records a firing unless one with the same schedule and time exists: the one place a firing is claimed.
   *
   * @return true when this call recorded it; false when it had been recorded before (it must not run again)
   */
  boolean claim(ScheduleRun run);

  /** Replaces the stored run with the same key. */
  void updateRun(ScheduleRun run);
}
