package dev.roundhouse.services;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** Waits for a condition the OS gives no event for (a /proc state), polling until a deadline. */
final class Eventually {
  private Eventually() {}

  static <T> T await(String what, Duration timeout, Supplier<T> probe, java.util.function.Predicate<T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T value = probe.get();
    while (!done.test(value)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last seen: " + value);
      }
      LockSupport.parkNanos(2_000_000);
      value = probe.get();
    }
    return value;
  }
}
