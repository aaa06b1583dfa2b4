package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Locks;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Optional;

/**
 * The in-memory side of one task's turn loop: the thread running it, the stop flag and stop actions, the
 * wake-up signal for queued messages, and what the idle watchdog needs. The store holds the durable side.
 *
 * <p>Thread-safe: written by the loop thread, read and signalled by operation threads and the watchdog.
 */
final class ActiveTurn {
  final long taskId;
  volatile long turnId;
  volatile Thread thread;
  volatile Instant lastActivity;
  volatile boolean idle;
  final AtomicInteger parked = new AtomicInteger();
  final Set<Long> pendingDecisions = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean stopped = new AtomicBoolean();
  /** Why the runner failed the turn itself (an unattended run's refused question); the first reason wins. */
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final List<Runnable> stopActions = new CopyOnWriteArrayList<>();
  private final Semaphore wake = new Semaphore(0);

  ActiveTurn(long taskId, long turnId, Instant now) {
    this.taskId = taskId;
    this.turnId = turnId;
    this.lastActivity = now;
  }

  boolean stopped() {
    return stopped.get();
  }

  /**
   * Marks the current turn as failed by the runner with {@code reason} (before stopping it), so the loop records
   * {@code failed} rather than {@code stopped}; the first reason wins.
   */
  void fail(String reason) {
    failure.compareAndSet(null, reason);
  }

  /** Why the runner failed the current turn, when it did. */
  Optional<String> failure() {
    return Optional.ofNullable(failure.get());
  }

  /** Marks the loop stopped; true for the caller that did it first. */
  boolean markStopped() {
    return stopped.compareAndSet(false, true);
  }

  void onStop(Runnable action) {
    stopActions.add(action);
    if (stopped.get() && stopActions.remove(action)) {
      Locks.assertNoneHeld("a driver's stop action");
      action.run();
    }
  }

  /** Runs and forgets every registered stop action, on the calling thread. */
  void runStopActions() {
    for (Runnable action : stopActions) {
      if (stopActions.remove(action)) {
        Locks.assertNoneHeld("a driver's stop action");
        action.run();
      }
    }
  }

  /** Signals that a message was queued (or the loop was stopped). */
  void wake() {
    wake.release();
  }

  /** Waits for a signal; false when none came within {@code nanos}. */
  boolean awaitWake(long nanos) throws InterruptedException {
    return wake.tryAcquire(nanos, TimeUnit.NANOSECONDS);
  }
}
