package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.model.Schedule;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Schedules' recurrences, parsed once: parsing an RRULE costs milliseconds (ical4j), and a tick that fires 1,000
 * schedules would otherwise parse 1,000 of them. Keyed by what a recurrence is made of (text, zone, anchor), so
 * an edited schedule gets a fresh one. Bounded: cleared when it grows past {@link #MAX}.
 *
 * <p>Thread-safe ({@link Recurrence} is, and the map is concurrent).
 */
final class ParsedRecurrences {
  static final int MAX = 20_000;

  private record Key(String text, String zone, Instant anchor) {}

  private final Map<Key, Recurrence> parsed = new ConcurrentHashMap<>();

  /** The recurrence {@code schedule} stores, anchored at its creation (the phase of an INTERVAL rule). */
  Recurrence of(Schedule schedule) {
    return parse(schedule.recurrence(), ZoneId.of(schedule.zone()), schedule.createdAt());
  }

  /**
   * {@code text} parsed in {@code zone} from {@code anchor}, from the cache when it was parsed before.
   *
   * @throws dev.roundhouse.hub.core.RoundhouseException.InvalidInput naming what is wrong with the text
   */
  Recurrence parse(String text, ZoneId zone, Instant anchor) {
    Key key = new Key(text, zone.getId(), anchor);
    Recurrence known = parsed.get(key);
    if (known != null) {
      return known;
    }
    if (parsed.size() >= MAX) {
      parsed.clear();
    }
    Recurrence fresh = Recurrence.parse(text, zone, anchor);
    parsed.put(key, fresh);
    return fresh;
  }
}
