package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Queries for runbooks, schedules and their runs. Not thread-safe: used by the thread that was handed it. */
public interface ScheduleReads {
  Optional<Runbook> runbook(long id);

  Optional<Runbook> runbookNamed(long project, String name);

  /** Runbooks by name; every project's when {@code project} is null. */
  List<Runbook> runbooks(Long project);

  Optional<Schedule> schedule(long id);

  Optional<Schedule> scheduleNamed(long project, String name);

  /** Schedules by name; every project's when {@code project} is null. */
  List<Schedule> schedules(Long project);

  /** Schedules of {@code runbook}. */
  List<Schedule> schedulesOf(long runbook);

  /** Unpaused schedules whose next firing is at or before {@code now}, earliest first. */
  List<Schedule> due(Instant now, int limit);

  /** The earliest next firing of any unpaused schedule. */
  Optional<Instant> earliestDue();

  /** How many schedules are not paused. */
  int activeSchedules();

  Optional<ScheduleRun> run(long schedule, Instant scheduledAt);

  /** The schedule's runs, newest first. */
  List<ScheduleRun> runs(long schedule, int limit);

  /** The schedule's pending, queued or running runs, oldest firing first. */
  List<ScheduleRun> openRuns(long schedule);

  /** Every pending, queued or running run, oldest firing first. */
  List<ScheduleRun> openRuns();

  /** The run that minted {@code task}. */
  Optional<ScheduleRun> runOfTask(long task);
}
