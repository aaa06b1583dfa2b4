package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskEdit;
import dev.roundhouse.hub.model.Worker;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Queries over a consistent snapshot. Not thread-safe: used by the thread that was handed it. */
public interface StoreReader {
  Optional<Project> project(long id);

  /** The project whose name equals {@code name} ignoring case. */
  Optional<Project> projectByName(String name);

  List<Project> projects();

  Optional<Task> task(long id);

  /** Tasks matching {@code query}, in board order. */
  List<Task> tasks(TaskQuery query);

  /** Every {@code blocked_by} edge of the tasks in {@code project}: task id to the ids blocking it. */
  Map<Long, List<Long>> blockerEdges(long project);

  /**
   * Ids above {@code afterId} of the tasks, neither done nor cancelled nor suggested, whose {@code start_at} is at
   * or before {@code by}: the deferred starts that are due, by id, at most {@code limit} (page with the last id).
   */
  List<Long> dueStarts(Instant by, long afterId, int limit);

  /** The earliest {@code start_at} after {@code after} of a task neither done nor cancelled; empty when none. */
  Optional<Instant> nextStartAfter(Instant after);

  /** Ids of the tasks, neither done nor cancelled, marked {@code auto_start}. */
  List<Long> autoStartTasks();

  /** Tags with how many tasks (in {@code project}, or anywhere when null) carry each. */
  List<Tag> tags(Long project);

  Optional<TaskEdit> edit(long id);

  /** Edits of {@code task}, newest first. */
  List<TaskEdit> edits(long task, int limit);

  /** The hub processes registered on this database, oldest first. */
  List<Worker> workers();

  /** Turns, the message queue, decisions and rules. */
  RunnerReads runner();

  /** Capability modules' records. */
  ExtensionReads extensions();

  /** Runbooks, schedules and their runs. */
  ScheduleReads schedules();

  /** What the retention policy needs to know about finished tasks. */
  RetentionReads retention();
}
