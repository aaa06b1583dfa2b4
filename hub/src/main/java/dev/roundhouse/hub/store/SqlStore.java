package dev.roundhouse.hub.store;

import dev.roundhouse.hub.events.Event;
import java.util.List;

/** What both backends answer the same way: the event log, read through {@link #read}. Thread-safe. */
abstract class SqlStore implements Store {
  @Override
  public List<Event> eventsAfter(long after, int limit) {
    return read(reader -> ((SqlReader) reader).eventsAfter(after, limit));
  }

  @Override
  public List<Event> taskEventsAfter(long task, long after, int limit) {
    return read(reader -> reader.runner().taskEvents(task, after, Long.MAX_VALUE, limit, false));
  }

  @Override
  public long lastSeq() {
    return read(reader -> ((SqlReader) reader).lastSeq());
  }
}
