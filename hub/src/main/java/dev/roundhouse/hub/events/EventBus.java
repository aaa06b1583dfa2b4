package dev.roundhouse.hub.events;

import dev.roundhouse.hub.core.Locks;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fans committed events out to live subscriptions, and opens streams that replay the durable log before
 * going live.
 *
 * <p>Publishing never blocks: each subscription has a bounded buffer, and one that falls further behind
 * than its buffer is closed with a reason (its reader reconnects with the last sequence it saw and is
 * replayed from the store), so a slow viewer can stall neither the writer nor other viewers.
 *
 * <p>Thread-safe. {@link #published} runs on the store's writer thread and holds no lock; it, and so
 * {@link #publishTransient}, refuses a caller that holds a {@linkplain Locks#tracked tracked} lock.
 */
public final class EventBus implements EventSink {
  private final CopyOnWriteArrayList<LiveSubscription> live = new CopyOnWriteArrayList<>();
  private volatile EventLog log;

  /** Connects the durable log used for replay; set once the store is open. */
  public void attach(EventLog log) {
    this.log = log;
  }

  /**
   * Hands {@code events} to every live subscription.
   *
   * @throws IllegalStateException when the calling thread holds a {@linkplain Locks#tracked tracked} lock
   */
  @Override
  public void published(List<Event> events, long committedAtNanos) {
    Locks.assertNoneHeld("the event bus's subscribers");
    for (LiveSubscription subscription : live) {
      if (!subscription.offer(events, committedAtNanos)) {
        live.remove(subscription);
      }
    }
  }

  /**
   * A stream of every event with a sequence number above {@code after}: first replayed from the store,
   * then live, with no gap and no duplicate.
   *
   * @param buffer how many live events may wait for the reader before it is disconnected
   */
  public EventStream open(long after, int buffer) {
    return open(after, buffer, null);
  }

  /**
   * As {@link #open(long, int)}, limited to one task's events when {@code task} is not null (its durable
   * events and its transient ones, such as text deltas).
   */
  public EventStream open(long after, int buffer, Long task) {
    EventLog source = log;
    if (source == null) {
      throw new IllegalStateException("no event log attached");
    }
    LiveSubscription subscription = new LiveSubscription(buffer, this, task);
    live.add(subscription);
    return new ReplayThenLiveStream(source, after, subscription, task);
  }

  /**
   * Publishes an event that is not stored (a text delta): live readers get it in order with the durable
   * events around it; a reader that reconnects does not, and the durable event that follows sums it up.
   * Its {@code seq} is 0. Never blocks.
   *
   * @throws IllegalStateException when the calling thread holds a {@linkplain Locks#tracked tracked} lock
   */
  public void publishTransient(Event event) {
    if (event.seq() != 0) {
      throw new IllegalArgumentException("a transient event has seq 0");
    }
    published(List.of(event), System.nanoTime());
  }

  void remove(LiveSubscription subscription) {
    live.remove(subscription);
  }

  /** The sequence number of the newest durable event, or 0. */
  public long lastSeqOrZero() {
    EventLog source = log;
    return source == null ? 0 : source.lastSeq();
  }

  /** How many streams are open; for tests and {@code doctor}. */
  public int openStreams() {
    return live.size();
  }
}
