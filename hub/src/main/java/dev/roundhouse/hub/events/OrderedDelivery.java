package dev.roundhouse.hub.events;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers durable events in sequence order, each once, when other processes append to the same log (several
 * hub workers on one PostgreSQL database). This worker's commits arrive from its writer; the others' are read
 * from the log when the store says they committed. Both go through one thread, which hands on a batch only
 * when it continues the last number delivered, and otherwise first reads the log forward to fill the gap
 * (the log's numbers are gap-free and commit-ordered, so reading forward never skips one). Transient events
 * take the same queue, so they keep their place after the durable events published before them.
 *
 * <p>A read that fails (the database away) is retried by the next batch or the next notice of others'
 * commits: nothing is lost, since everything not yet delivered is in the log.
 *
 * <p>Thread-safe: callers only enqueue; the position is the delivery thread's alone.
 */
final class OrderedDelivery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OrderedDelivery.class);
  private static final int PAGE = 512;

  private sealed interface Item {}

  private record Batch(List<Event> events, long atNanos) implements Item {}

  private record CatchUp() implements Item {}

  private record Stop() implements Item {}

  private final EventLog source;
  private final BiConsumer<List<Event>, Long> deliver;
  private final BlockingQueue<Item> queue = new LinkedBlockingQueue<>();
  /** Coalesces notices: one catch-up waiting in the queue covers every commit before it is read. */
  private final AtomicBoolean catchUpQueued = new AtomicBoolean();
  private final Thread thread;
  /** The newest sequence number handed on; the delivery thread's. */
  private long delivered;
  /** Whether the last read of the log failed: an outage is logged once, not once per batch; the delivery thread's. */
  private boolean failing;

  /** @param deliver the bus's fan-out, called on the delivery thread with the events and their commit time */
  OrderedDelivery(EventLog source, BiConsumer<List<Event>, Long> deliver) {
    this.source = source;
    this.deliver = deliver;
    this.delivered = source.lastSeq();
    this.thread = Thread.ofPlatform().name("roundhouse-event-delivery").daemon(true).start(this::run);
  }

  /** Events this process committed, in sequence order; or one transient event (seq 0). */
  void published(List<Event> events, long atNanos) {
    queue.add(new Batch(events, atNanos));
  }

  void othersCommitted() {
    if (catchUpQueued.compareAndSet(false, true)) {
      queue.add(new CatchUp());
    }
  }

  private void run() {
    while (true) {
      Item item;
      try {
        item = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      try {
        switch (item) {
          case Stop stop -> {
            return;
          }
          case CatchUp catchUp -> {
            catchUpQueued.set(false);
            readForward(Long.MAX_VALUE);
          }
          case Batch batch -> deliverBatch(batch);
        }
      } catch (RuntimeException e) {
        // the log could not be read (the database away): the next batch or notice reads forward again
        if (!failing) {
          log.warn("could not read the event log forward from seq {} (events wait until it can be read): {}", delivered, e.getMessage());
          failing = true;
        }
      }
    }
  }

  private void deliverBatch(Batch batch) {
    if (batch.events().getFirst().seq() == 0) {
      deliver.accept(batch.events(), batch.atNanos());
      return;
    }
    List<Event> fresh = new ArrayList<>(batch.events().size());
    for (Event event : batch.events()) {
      if (event.seq() > delivered) {
        fresh.add(event);
      }
    }
    if (fresh.isEmpty()) {
      return; // already read from the log
    }
    if (fresh.getFirst().seq() == delivered + 1) {
      hand(fresh, batch.atNanos());
      return;
    }
    readForward(fresh.getLast().seq()); // another worker's events came first: they, then these, from the log
  }

  /** Delivers what the log holds after the last delivered number, up to {@code upTo} or its end. */
  private void readForward(long upTo) {
    while (delivered < upTo) {
      List<Event> page = source.eventsAfter(delivered, PAGE);
      if (failing) {
        log.info("reading the event log forward again from seq {}", delivered);
        failing = false;
      }
      if (page.isEmpty()) {
        return;
      }
      hand(page, System.nanoTime());
    }
  }

  private void hand(List<Event> events, long atNanos) {
    delivered = events.getLast().seq();
    deliver.accept(events, atNanos);
  }

  @Override
  public void close() {
    queue.add(new Stop());
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
