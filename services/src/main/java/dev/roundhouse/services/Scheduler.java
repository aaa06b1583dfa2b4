package dev.roundhouse.services;

import java.time.Duration;

/**
 * Runs a task after a delay: restart backoffs, readiness timeouts and polls, a terminal's reattach grace.
 * Injected so tests advance time by hand instead of sleeping. Implementations are thread-safe.
 */
public interface Scheduler {
  /** Runs {@code task} once after {@code delay}; the returned handle cancels it if it has not run. */
  Subscription schedule(Duration delay, Runnable task);

  /** A scheduler on one platform timer thread that runs each task on a new virtual thread. */
  static Scheduler system() {
    return SystemScheduler.INSTANCE;
  }
}
