package dev.roundhouse.hub.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on a condition with a deadline, instead of sleeping. Stateless. */
public final class Waits {
  private Waits() {}

  /** Polls {@code condition} until it holds, failing with {@code what} when {@code timeout} passes. */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for: " + what);
      }
    }
  }
}
