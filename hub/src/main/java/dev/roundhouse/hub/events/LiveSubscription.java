package dev.roundhouse.hub.events;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A bounded buffer of live events for one reader. Thread-safe: the writer thread offers, the reader polls.
 */
final class LiveSubscription {
  /**
   * An event together with when its transaction committed (for latency measurements) and the newest durable
   * seq published before it: a transient event is stale for a reader that has already read past that.
   */
  record Delivery(Event event, long committedAtNanos, long durableBefore) {}

  private static final Delivery CLOSED = new Delivery(null, 0, 0);

  private final ArrayBlockingQueue<Delivery> queue;
  private final EventBus bus;
  private final Long task;
  private volatile String closedReason;

  LiveSubscription(int capacity, EventBus bus, Long task) {
    if (capacity < 1) {
      throw new IllegalArgumentException("buffer must hold at least one event");
    }
    this.queue = new ArrayBlockingQueue<>(capacity + 1);
    this.bus = bus;
    this.task = task;
  }

  /** Returns false when this subscription is closed (now or before) and should be dropped. */
  boolean offer(List<Event> events, long committedAtNanos, long durableBefore) {
    if (closedReason != null) {
      return false;
    }
    for (Event event : events) {
      if (task != null && !task.equals(event.taskId())) {
        continue;
      }
      if (queue.remainingCapacity() <= 1) {
        close(
            "fell more than "
                + (queue.size())
                + " events behind; reconnect with the last sequence number seen to resume");
        return false;
      }
      queue.add(new Delivery(event, committedAtNanos, durableBefore));
    }
    return true;
  }

  Delivery poll(long timeoutNanos) throws InterruptedException {
    Delivery delivery = queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
    if (delivery == CLOSED) {
      queue.offer(CLOSED);
      return null;
    }
    return delivery;
  }

  String closedReason() {
    return closedReason;
  }

  /** Closes with a reason the reader sees after the events already buffered. */
  void close(String reason) {
    if (closedReason == null) {
      closedReason = reason;
      queue.offer(CLOSED);
      bus.remove(this);
    }
  }
}
