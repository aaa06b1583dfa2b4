package dev.roundhouse.hub.events;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * Replays the durable log after a position, then reads the live subscription, skipping what the replay
 * already returned. The subscription is registered before the replay starts, so every event committed
 * after that is buffered and every event committed before it is in the store: no gap, no duplicate.
 *
 * <p>Not thread-safe, except {@link #close()}.
 */
final class ReplayThenLiveStream implements EventStream {
  private static final int PAGE = 256;

  private final EventLog log;
  private final LiveSubscription live;
  private final Long task;
  private final ArrayDeque<Event> page = new ArrayDeque<>();
  private long position;
  private boolean replaying = true;
  private long committedAtNanos;
  private volatile boolean closed;

  ReplayThenLiveStream(EventLog log, long after, LiveSubscription live, Long task) {
    this.log = log;
    this.live = live;
    this.task = task;
    this.position = after;
  }

  @Override
  public Optional<Event> next(Duration timeout) throws InterruptedException {
    if (closed) {
      throw new EventStreamClosed("stream closed");
    }
    while (replaying) {
      if (page.isEmpty()) {
        page.addAll(task == null ? log.eventsAfter(position, PAGE) : log.taskEventsAfter(task, position, PAGE));
        if (page.isEmpty()) {
          replaying = false;
          break;
        }
      }
      Event event = page.removeFirst();
      position = event.seq();
      committedAtNanos = 0;
      return Optional.of(event);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      LiveSubscription.Delivery delivery = live.poll(Math.max(0, left));
      if (delivery == null) {
        String reason = live.closedReason();
        if (reason != null) {
          throw new EventStreamClosed(reason);
        }
        if (System.nanoTime() - deadline >= 0) {
          return Optional.empty();
        }
        continue;
      }
      if (delivery.event().seq() == 0) {
        // Transient (not stored): passed on live, never replayed; the position does not move. One published
        // before a durable event this stream already returned (the replay read the message that sums a text
        // delta up while the delta waited in the buffer) would show after its own summary: it is dropped.
        if (delivery.durableBefore() < position) {
          continue;
        }
        committedAtNanos = delivery.committedAtNanos();
        return Optional.of(delivery.event());
      }
      if (delivery.event().seq() <= position) {
        continue;
      }
      position = delivery.event().seq();
      committedAtNanos = delivery.committedAtNanos();
      return Optional.of(delivery.event());
    }
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public long committedAtNanos() {
    return committedAtNanos;
  }

  @Override
  public void close() {
    closed = true;
    live.close("stream closed");
  }
}
