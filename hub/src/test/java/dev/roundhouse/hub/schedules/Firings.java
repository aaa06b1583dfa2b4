package dev.roundhouse.hub.schedules;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;

/** Test helpers: times written as ISO strings with offsets, so a reader can check each expected firing. */
final class Firings {
  private Firings() {}

  static Instant at(String isoWithOffset) {
    return OffsetDateTime.parse(isoWithOffset).toInstant();
  }

  /** The firings as wall time plus offset in the recurrence's zone, e.g. {@code 2025-03-09T03:00-04:00}. */
  static List<String> shown(Recurrence recurrence, List<Instant> firings) {
    return firings.stream().map(instant -> OffsetDateTime.ofInstant(instant, recurrence.zone()).toString()).toList();
  }

  /** The next {@code count} firings after {@code after}, with the default anchor. */
  static List<String> preview(String text, String zone, String after, int count) {
    Recurrence recurrence = Recurrence.parse(text, ZoneId.of(zone));
    return shown(recurrence, recurrence.preview(at(after), count));
  }

  static List<String> preview(String text, String zone, String anchor, String after, int count) {
    Recurrence recurrence = Recurrence.parse(text, ZoneId.of(zone), at(anchor));
    return shown(recurrence, recurrence.preview(at(after), count));
  }
}
