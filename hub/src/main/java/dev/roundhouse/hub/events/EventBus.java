package dev.roundhouse.hub.events;

import dev.roundhouse.hub.core.Locks;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans committed events out to live subscriptions, and opens streams that replay the durable log before
 * going live.
 *
 * <p>Publishing never blocks: each subscription has a bounded buffer, and one that falls further behind
 * than its buffer is closed with a reason (its reader reconnects with the last sequence it saw and is
 * replayed from the store), so a slow viewer can stall neither the writer nor other viewers.
 *
 * <p>With several hub workers on one database, each worker's bus delivers every worker's durable events, in
 * one order, through {@link OrderedDelivery}; transient events (text deltas) stay on the worker that made them.
 *
 * <p>Thread-safe. {@link #published} runs on the store's writer thread (on the delivery thread of a shared
 * log); it calls observers with no lock
 * held and offers to the subscriptions' queues (which never blocks) under one private lock, so durable and
 * transient events have one order in every queue. It, and so {@link #publishTransient}, refuses a caller
 * that holds a {@linkplain Locks#tracked tracked} lock.
 */
public final class EventBus implements EventSink {
  private static final Logger logger = LoggerFactory.getLogger(EventBus.class);

  private final CopyOnWriteArrayList<LiveSubscription> live = new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<Consumer<List<Event>>> observers = new CopyOnWriteArrayList<>();
  /** Orders the fan-out: every subscription sees durable and transient events in one order. */
  private final Object fanOut = new Object();

  @GuardedBy("fanOut")
  private long lastDurableSeq;

  private volatile EventLog log;
  /** Orders what this process and the others commit, when the log is shared; null when it is not. */
  private volatile OrderedDelivery ordered;

  /**
   * Connects the durable log used for replay; set once the store is open. When other processes write to it
   * too ({@link EventLog#sharedWithOtherWriters()}), publishing goes through one delivery thread that keeps
   * every worker's events in one order ({@link OrderedDelivery}); {@link #close()} stops it.
   */
  public void attach(EventLog log) {
    this.log = log;
    if (log.sharedWithOtherWriters() && ordered == null) {
      this.ordered = new OrderedDelivery(log, this::fanOut);
    }
  }

  /** Stops the delivery thread of a shared log, if any. */
  public void close() {
    OrderedDelivery delivery = ordered;
    if (delivery != null) {
      delivery.close();
    }
  }

  @Override
  public void othersCommitted() {
    OrderedDelivery delivery = ordered;
    if (delivery != null) {
      delivery.othersCommitted();
    }
  }

  /**
   * Hands {@code events} to every live subscription.
   *
   * @throws IllegalStateException when the calling thread holds a {@linkplain Locks#tracked tracked} lock
   */
  @Override
  public void published(List<Event> events, long committedAtNanos) {
    Locks.assertNoneHeld("the event bus's subscribers");
    OrderedDelivery delivery = ordered;
    if (delivery != null) {
      delivery.published(events, committedAtNanos);
    } else {
      fanOut(events, committedAtNanos);
    }
  }

  private void fanOut(List<Event> events, long committedAtNanos) {
    for (Consumer<List<Event>> observer : observers) {
      try {
        observer.accept(events);
      } catch (RuntimeException e) {
        logger.warn("an event observer failed; it stays registered", e);
      }
    }
    // Offering only adds to bounded queues (never blocks); under the lock so that a transient event's
    // stamp (the newest durable seq offered before it) matches where it sits in every queue.
    synchronized (fanOut) {
      for (Event event : events) {
        lastDurableSeq = Math.max(lastDurableSeq, event.seq());
      }
      for (LiveSubscription subscription : live) {
        if (!subscription.offer(events, committedAtNanos, lastDurableSeq)) {
          live.remove(subscription);
        }
      }
    }
  }

  /**
   * Adds an in-process observer of every published batch (durable events after their commit, and transient
   * ones), for an engine of the hub that reacts to changes whichever path made them (the dependents of a
   * task that ended start this way). It is called on the publishing thread (the store's writer) with no
   * lock held, before the live streams: it must not block, write or call out; it notes what it needs and
   * hands the work to a thread of its own. An observer is not a stream: it is not counted in {@link
   * #openStreams} and is never closed for falling behind. What it throws is logged and ignored.
   */
  public void observe(Consumer<List<Event>> observer) {
    observers.add(java.util.Objects.requireNonNull(observer, "observer"));
  }

  /** Removes an observer added with {@link #observe}. */
  public void unobserve(Consumer<List<Event>> observer) {
    observers.remove(observer);
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
