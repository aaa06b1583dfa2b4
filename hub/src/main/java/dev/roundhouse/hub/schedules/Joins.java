package dev.roundhouse.hub.schedules;

import java.time.Duration;
import org.slf4j.Logger;

/** Waiting for a stopping thread, bounded, saying so when it does not stop. Stateless. */
final class Joins {
  /** How long a closing hub waits for a start under way. */
  static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private Joins() {}

  /** Waits up to {@link #STOP_WAIT} for {@code running} (null: nothing to wait for), logging {@code what} if it does not end. */
  static void awaitStop(Thread running, String what, Logger log) {
    if (running == null) {
      return;
    }
    try {
      if (!running.join(STOP_WAIT)) {
        log.warn("{} did not stop within {} s", what, STOP_WAIT.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
