package dev.roundhouse.calendaragent;

import java.util.List;

/**
 * Where one calendar's events live: an ICS file ({@link IcsFileCalendar}) or a CalDAV collection
 * ({@link CalDavCalendar}). Implementations are thread-safe.
 */
interface CalendarBackend {

  /** The calendar as it is now; the same {@link Snapshot} as long as nothing changed. */
  Snapshot read();

  /**
   * Applies {@code changes} in order, each exactly once: a change the calendar already shows is skipped (a
   * retried approval), a change whose event is neither as staged nor as proposed is refused with
   * {@link EventChange#conflict()}, never overwritten.
   */
  void apply(List<EventChange> changes);
}
