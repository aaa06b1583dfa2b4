package dev.roundhouse.hub.events;

import java.util.List;

/**
 * Receives events right after the transaction that wrote them committed, in sequence order, on the store's
 * writer thread. Implementations must not block.
 */
@FunctionalInterface
public interface EventSink {
  /**
   * @param events the batch's events, in sequence order
   * @param committedAtNanos {@link System#nanoTime()} right after the commit, for latency measurements
   */
  void published(List<Event> events, long committedAtNanos);

  /**
   * Another process (a hub worker on the same database) has committed events: they are in the log, and a
   * sink that delivers them reads it forward. Called on the store's listening thread; must not block.
   */
  default void othersCommitted() {}
}
