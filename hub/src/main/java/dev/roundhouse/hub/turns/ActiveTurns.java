package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.decisions.Decisions;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner of the running task loops (OkHttp's Dispatcher to {@link TurnLoop}'s call): at most one per task,
 * and the one way a loop is stopped, whether by {@code turn_stop} or by the hub shutting down.
 *
 * <p>Thread-safe: a concurrent map; stopping runs the loop's stop actions on the calling thread with no lock
 * held.
 */
final class ActiveTurns {
  private static final Logger log = LoggerFactory.getLogger(ActiveTurns.class);

  private final ConcurrentHashMap<Long, ActiveTurn> loops = new ConcurrentHashMap<>();
  private final Decisions decisions;

  ActiveTurns(Decisions decisions) {
    this.decisions = decisions;
  }

  Optional<ActiveTurn> of(long task) {
    return Optional.ofNullable(loops.get(task));
  }

  void add(ActiveTurn loop) {
    loops.put(loop.taskId, loop);
  }

  /** Forgets {@code loop} if it is still the task's (a later loop of the same task stays). */
  void remove(ActiveTurn loop) {
    loops.remove(loop.taskId, loop);
  }

  boolean isActive(ActiveTurn loop) {
    return loops.get(loop.taskId) == loop;
  }

  Collection<ActiveTurn> all() {
    return List.copyOf(loops.values());
  }

  int size() {
    return loops.size();
  }

  /**
   * Stops a loop, once: its pending decisions expire (a denial), its driver's stop actions run, and its thread
   * is woken and interrupted. True for the caller that stopped it.
   */
  boolean stop(ActiveTurn loop, String why) {
    if (!loop.markStopped()) {
      return false;
    }
    for (long decision : List.copyOf(loop.pendingDecisions)) {
      decisions.expire(decision, why);
    }
    try {
      loop.runStopActions();
    } catch (RuntimeException e) {
      log.warn("a stop action of turn {} failed", loop.turnId, e);
    }
    loop.wake();
    Thread thread = loop.thread;
    if (thread != null) {
      thread.interrupt();
    }
    return true;
  }

  /** Waits up to {@code grace} for {@code loop}'s thread to end; false when it is still running. */
  static boolean awaitEnd(ActiveTurn loop, Duration grace) {
    Thread thread = loop.thread;
    if (thread == null || thread == Thread.currentThread()) {
      return true;
    }
    try {
      return thread.join(grace);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
