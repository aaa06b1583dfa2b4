package dev.roundhouse.hub.turns;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.Actor;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks turns idle that produced nothing for the idle time while not parked on a human (a hung agent is
 * visible, not silently running forever); checks every quarter of the idle time, at most every 30 s.
 *
 * <p>Thread-safe: one platform thread of its own once started ({@code lock} guards creating and stopping it, never
 * the check); {@link #check} may also be called by tests.
 */
final class IdleWatchdog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(IdleWatchdog.class);

  private final RunnerParts parts;
  private final ActiveTurns active;
  private final ReentrantLock lock = Locks.tracked("idle-watchdog");

  @GuardedBy("lock")
  private ScheduledExecutorService timer;

  IdleWatchdog(RunnerParts parts, ActiveTurns active) {
    this.parts = parts;
    this.active = active;
  }

  void start() {
    lock.lock();
    try {
      if (timer != null) {
        return;
      }
      long every = Math.max(1, Math.min(parts.settings().idleTimeout().toMillis() / 4, 30_000));
      timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("roundhouse-turn-watchdog").daemon(true).factory());
      timer.scheduleWithFixedDelay(this::checkQuietly, every, every, TimeUnit.MILLISECONDS);
    } finally {
      lock.unlock();
    }
  }

  /** Marks idle every loop that produced nothing for the idle time while not parked on a human. */
  void check() {
    Instant now = parts.clock().instant();
    for (ActiveTurn loop : active.all()) {
      if (loop.idle || loop.parked.get() > 0 || loop.stopped()) {
        continue;
      }
      if (Duration.between(loop.lastActivity, now).compareTo(parts.settings().idleTimeout()) >= 0) {
        loop.idle = true;
        long turnId = loop.turnId;
        parts.store().write(w -> {
          w.runner().setTurnIdle(turnId, true);
          w.append(new RunnerEvent.Idle(turnId, loop.lastActivity).draft(Actor.SCHEDULER, TurnLoop.projectOf(w, loop.taskId), loop.taskId));
          return null;
        });
      }
    }
  }

  private void checkQuietly() {
    try {
      check();
    } catch (RuntimeException e) {
      log.warn("idle check failed", e);
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (timer != null) {
        timer.shutdownNow();
      }
    } finally {
      lock.unlock();
    }
  }
}
