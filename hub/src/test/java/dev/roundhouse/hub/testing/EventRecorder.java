package dev.roundhouse.hub.testing;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Reads a hub's event stream from the start and waits for the events a test expects, with a deadline.
 * Keeps everything it read (transient events included). It replays the stored events when it is made, so
 * that from then on it reads live, in the order the hub published (a stream still replaying later would get
 * a text delta's stored summary instead of the delta, as a late viewer does). Not thread-safe: one test thread
 * uses it.
 */
public final class EventRecorder implements AutoCloseable {
  private final EventStream stream;
  private final List<Event> seen = new ArrayList<>();
  private int cursor;

  public EventRecorder(Hub hub) {
    this.stream = hub.events().open(0, 100_000);
    try {
      for (Optional<Event> next = stream.next(Duration.ZERO); next.isPresent(); next = stream.next(Duration.ZERO)) {
        seen.add(next.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The next event (after the ones already awaited) that matches, failing after {@code timeout}. */
  public Event await(String what, Duration timeout, Predicate<Event> match) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      while (cursor < seen.size()) {
        Event event = seen.get(cursor++);
        if (match.test(event)) {
          return event;
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; saw " + types());
      }
      try {
        Optional<Event> next = stream.next(Duration.ofNanos(left));
        next.ifPresent(seen::add);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** The next event of {@code type} (for task {@code task}). */
  public Event await(String type, long task) {
    return await(type + " on task " + task, Duration.ofSeconds(20), e -> e.type().equals(type) && Long.valueOf(task).equals(e.taskId()));
  }

  /**
   * Any event (already read or still to come) that matches, regardless of the cursor: for events whose
   * place relative to others is not fixed, such as live-only text deltas against replayed stored events.
   */
  public Event find(String what, Duration timeout, Predicate<Event> match) {
    for (Event event : seen) {
      if (match.test(event)) {
        return event;
      }
    }
    int saved = cursor;
    cursor = seen.size();
    try {
      return await(what, timeout, match);
    } finally {
      cursor = Math.min(saved, cursor);
    }
  }

  /** Everything read so far. */
  public List<Event> seen() {
    return List.copyOf(seen);
  }

  public List<String> types() {
    return seen.stream().map(Event::type).toList();
  }

  @Override
  public void close() {
    stream.close();
  }
}
