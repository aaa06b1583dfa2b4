package dev.roundhouse.drivers.openai;

import java.time.Duration;

/**
 * Waits between retries. Injected so tests record the waits instead of taking them; the driver's own
 * sleeper wakes early when the turn is stopped.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
interface Sleeper {
  /** Waits for {@code duration} (or less, when woken by a stop). */
  void sleep(Duration duration) throws InterruptedException;
}
