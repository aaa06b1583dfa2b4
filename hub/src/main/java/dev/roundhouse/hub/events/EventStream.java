package dev.roundhouse.hub.events;

import java.time.Duration;
import java.util.Optional;

/**
 * One reader's ordered view of the event sequence. Not thread-safe: one thread reads it; {@link #close()}
 * may be called from any thread.
 */
public interface EventStream extends AutoCloseable {

  /**
   * The next event, waiting up to {@code timeout}; empty when none arrived in time.
   *
   * @throws EventStreamClosed once the stream is closed (by {@link #close()} or because its reader fell
   *     behind), with the reason
   */
  Optional<Event> next(Duration timeout) throws InterruptedException;

  /** The sequence number of the last event returned, or where the stream started. */
  long position();

  /**
   * {@link System#nanoTime()} when the transaction of the last returned event committed, or 0 when that
   * event was replayed from the store; for latency measurements.
   */
  long committedAtNanos();

  @Override
  void close();

  /** Thrown by {@link #next} once the stream has ended. */
  final class EventStreamClosed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EventStreamClosed(String reason) {
      super(reason);
    }
  }
}
