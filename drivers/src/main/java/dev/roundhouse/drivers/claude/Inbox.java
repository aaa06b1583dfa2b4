package dev.roundhouse.drivers.claude;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What reaches a session's thread, in order: the CLI's stdout lines (stamped with when they were read),
 * the end of its output, and a stop. The stdout reader and the stop action put; the session's thread takes,
 * so every call into the turn context happens on one thread.
 *
 * <p>Thread-safe.
 */
final class Inbox {
  sealed interface Item {}

  /** A line of the CLI's stdout, read at {@code readAt} ({@link System#nanoTime()}). */
  record Line(String text, long readAt) implements Item {}

  /** The CLI's stdout closed: it exited, or was killed. */
  record End() implements Item {}

  /** The turn was stopped. */
  record Stop() implements Item {}

  private final LinkedBlockingQueue<Item> items = new LinkedBlockingQueue<>();

  void line(String text) {
    items.add(new Line(text, System.nanoTime()));
  }

  void end() {
    items.add(new End());
  }

  void stop() {
    items.add(new Stop());
  }

  Item take() throws InterruptedException {
    return items.take();
  }

  /** The next item, or null when none came within {@code timeout}. */
  Item poll(Duration timeout) throws InterruptedException {
    return items.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
  }
}
