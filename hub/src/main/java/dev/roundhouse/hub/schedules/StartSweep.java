package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.schedules.AutoStartRule.Kind;
import dev.roundhouse.hub.schedules.AutoStartRule.Verdict;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import dev.roundhouse.hub.turns.TurnRunner;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt to start a task by itself, shared by {@link DeferredStarts} and {@link AutoStarts}: judge it
 * ({@link AutoStartRule}), and when it is due start its turn through the runner as {@link Actor#SCHEDULER}, the
 * rule judged again and the triggers cleared inside the very write that begins the turn. Two attempts at once (the
 * sweep and a blocker ending in the same instant), or an attempt repeated after a restart, therefore start it at
 * most once: the second finds the triggers gone.
 *
 * <p>A start that cannot happen (no driver, an unknown driver, a turn already running) clears the triggers too and
 * records a {@code task.start_failed} event naming why: it is not retried forever.
 *
 * <p>Thread-safe: stateless beyond its collaborators. Never called with a lock held.
 */
final class StartSweep {
  private static final Logger log = LoggerFactory.getLogger(StartSweep.class);

  /** What an attempt did. */
  enum Outcome {
    NOTHING,
    STARTED,
    FAILED
  }

  private final Store store;
  private final TurnRunner runner;

  StartSweep(Store store, TurnRunner runner) {
    this.store = store;
    this.runner = runner;
  }

  /** Starts task {@code id} if {@link AutoStartRule} says it is due at {@code now}. */
  Outcome attempt(long id, Instant now) {
    Locks.assertNoneHeld("a task's start");
    Optional<Task> due = store.read(r -> AutoStartRule.judge(r, id, now).due() ? r.task(id) : Optional.<Task>empty());
    if (due.isEmpty()) {
      return Outcome.NOTHING;
    }
    try {
      boolean[] refused = {false};
      Optional<?> started = runner.startIfAdmitted(Actor.SCHEDULER, id, firstMessage(due.get()), w -> {
        Verdict verdict = AutoStartRule.judge(w, id, now);
        if (verdict.kind() == Kind.START) {
          Board.clearStartTriggers(w, Actor.SCHEDULER, w.task(id).orElseThrow());
          return true;
        }
        if (verdict.kind() == Kind.REFUSE) {
          refused[0] = consume(w, id, now, verdict.reason());
        }
        return false;
      });
      if (started.isPresent()) {
        log.info("task {} started by itself ({})", id, AutoStartRule.triggers(due.get()));
        return Outcome.STARTED;
      }
      return refused[0] ? Outcome.FAILED : Outcome.NOTHING;
    } catch (RoundhouseException e) {
      // No driver, an unknown driver: the write never began, so record the failure in a write of its own.
      boolean recorded = store.write(w -> consume(w, id, now, e.getMessage()));
      if (recorded) {
        log.warn("task {} was due to start by itself and could not: {}", id, e.getMessage());
      }
      return recorded ? Outcome.FAILED : Outcome.NOTHING;
    }
  }

  /** Clears the triggers of a task that is still due and records why it did not start; false when no longer due. */
  private static boolean consume(StoreWriter w, long id, Instant now, String reason) {
    if (!AutoStartRule.judge(w, id, now).due()) {
      return false;
    }
    Task task = w.task(id).orElseThrow();
    w.append(new AutoStartEvent.StartFailed(AutoStartRule.triggers(task), reason).draft(Actor.SCHEDULER, task.projectId(), id));
    Board.clearStartTriggers(w, Actor.SCHEDULER, task);
    return true;
  }

  /**
   * The message a task's first turn runs when none is queued: its title, then its description. The turn's context
   * carries both as well; the message is what the agent is asked to do.
   */
  static String firstMessage(Task task) {
    return task.description() == null ? task.title() : task.title() + "\n\n" + task.description();
  }
}
