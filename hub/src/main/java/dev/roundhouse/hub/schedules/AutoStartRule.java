package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.store.StoreReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When a task starts its turn by itself: the one rule behind deferred starts ({@code start_at}) and dependents
 * ({@code auto_start}), judged on a snapshot of the store. See {@code docs/turns.md}, "Deferred starts and
 * dependents".
 *
 * <ul>
 *   <li>A task is <em>armed</em> when it has a {@code start_at} or is marked {@code auto_start}.
 *   <li>A done or cancelled task never starts (its triggers are left alone); a suggestion waits until the user
 *       accepts it.
 *   <li>Every armed condition must hold: the {@code start_at} has passed; every {@code blocked_by} task is done or
 *       cancelled (a deferred start waits for open blockers too, a task never starts itself while blocked); and
 *       {@code auto_start} without a {@code start_at} needs at least one blocker (there is nothing to wait for).
 *   <li>Then it starts, unless a turn already runs on it: that start is refused (recorded, not retried).
 * </ul>
 *
 * <p>Stateless.
 */
final class AutoStartRule {

  /** What to do about a task now. */
  enum Kind {
    /** Not armed, gone, done or cancelled: nothing to do. */
    NONE,
    /** Armed, but a condition does not hold yet. */
    WAIT,
    /** Start its turn, consuming its triggers. */
    START,
    /** Due, but it cannot start: consume its triggers and record why. */
    REFUSE
  }

  record Verdict(Kind kind, String reason) {
    static final Verdict NONE = new Verdict(Kind.NONE, null);
    static final Verdict START = new Verdict(Kind.START, null);

    static Verdict waiting(String reason) {
      return new Verdict(Kind.WAIT, reason);
    }

    boolean due() {
      return kind == Kind.START || kind == Kind.REFUSE;
    }
  }

  private AutoStartRule() {}

  static boolean armed(Task task) {
    return task.startAt() != null || task.autoStart();
  }

  /** The triggers {@code task} carries, by their wire names. */
  static List<String> triggers(Task task) {
    List<String> names = new ArrayList<>(2);
    if (task.startAt() != null) {
      names.add("start_at");
    }
    if (task.autoStart()) {
      names.add("auto_start");
    }
    return names;
  }

  static boolean terminal(TaskStatus status) {
    return status == TaskStatus.DONE || status == TaskStatus.CANCELLED;
  }

  /** Judges task {@code id} as {@code reader} sees it, at {@code now}. */
  static Verdict judge(StoreReader reader, long id, Instant now) {
    Optional<Task> found = reader.task(id);
    if (found.isEmpty()) {
      return Verdict.NONE;
    }
    Task task = found.get();
    if (!armed(task) || terminal(task.status())) {
      return Verdict.NONE;
    }
    if (task.suggested()) {
      return Verdict.waiting("a suggestion starts only once the user accepts it");
    }
    if (task.startAt() != null && task.startAt().isAfter(now)) {
      return Verdict.waiting("start_at " + task.startAt() + " has not come");
    }
    for (long blocker : task.blockedBy()) {
      Optional<Task> other = reader.task(blocker);
      if (other.isPresent() && !terminal(other.get().status())) {
        return Verdict.waiting("blocker " + blocker + " is " + other.get().status().wireName());
      }
    }
    if (task.startAt() == null && task.blockedBy().isEmpty()) {
      return Verdict.waiting("auto_start waits for a blocker to end, and the task has none");
    }
    Optional<Turn> running = reader.runner().activeTurn(id);
    if (running.isPresent()) {
      return new Verdict(
          Kind.REFUSE,
          "task " + id + " already has turn " + running.get().id() + " " + running.get().status().wireName());
    }
    return Verdict.START;
  }
}
