package dev.roundhouse.hub.events;

import java.util.List;

/** Durable events, read back in sequence order. Implementations are thread-safe. */
public interface EventLog {
  /** Up to {@code limit} events with a sequence number above {@code after}, oldest first. */
  List<Event> eventsAfter(long after, int limit);

  /** Up to {@code limit} events of one task with a sequence number above {@code after}, oldest first. */
  List<Event> taskEventsAfter(long task, long after, int limit);

  /** The sequence number of the newest durable event, or 0 when there is none. */
  long lastSeq();

  /**
   * Whether other processes write to this log too (several hub workers on one PostgreSQL database): then
   * events reach the bus both from this process's writer and from the log, and the bus orders them.
   */
  default boolean sharedWithOtherWriters() {
    return false;
  }
}
