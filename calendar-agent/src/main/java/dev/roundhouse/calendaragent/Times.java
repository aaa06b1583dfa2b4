package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Times as operations accept them: always with an explicit zone, so nothing is silently read as UTC (the
 * "an hour off" bug). {@code 2026-03-02T09:00[Europe/Berlin]}, {@code 2026-03-02T09:00+01:00[Europe/Berlin]}
 * (the offset must agree with the zone), {@code 2026-03-02T08:00Z} or {@code 2026-03-02T09:00+01:00}.
 * Stateless.
 */
final class Times {
  private static final Pattern BRACKETED = Pattern.compile("(.+)\\[([^\\]]+)]");

  /** The zone of times given with an offset only: an offset is no IANA zone, so they are kept in UTC. */
  static final ZoneId UTC = ZoneId.of("UTC");

  private Times() {}

  static ZonedDateTime parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new RoundhouseException.InvalidInput(field + " is required");
    }
    String value = text.strip();
    try {
      Matcher bracketed = BRACKETED.matcher(value);
      if (bracketed.matches()) {
        ZoneId zone = ZoneId.of(bracketed.group(2));
        String dateTime = bracketed.group(1);
        if (hasOffset(dateTime)) {
          OffsetDateTime offset = OffsetDateTime.parse(dateTime);
          ZonedDateTime zoned = offset.atZoneSameInstant(zone);
          if (!zoned.getOffset().equals(offset.getOffset())) {
            throw new RoundhouseException.InvalidInput(field + " '" + text + "': offset " + offset.getOffset()
                + " is not the offset of " + zone + " at that time (" + zoned.getOffset() + ")");
          }
          return zoned;
        }
        return LocalDateTime.parse(dateTime).atZone(zone);
      }
      if (hasOffset(value)) {
        return OffsetDateTime.parse(value).atZoneSameInstant(UTC);
      }
    } catch (DateTimeException e) {
      throw new RoundhouseException.InvalidInput(field + " '" + text + "' is not a time: " + e.getMessage());
    }
    throw new RoundhouseException.InvalidInput(field + " '" + text + "' has no zone: write it as "
        + value + "[Europe/Berlin] (an IANA zone) or with an offset such as " + value + "+01:00");
  }

  static LocalDate parseDate(String field, String text) {
    try {
      return LocalDate.parse(text == null ? "" : text.strip());
    } catch (DateTimeException e) {
      throw new RoundhouseException.InvalidInput(field + " '" + text + "' is not a date (YYYY-MM-DD) for an all-day event");
    }
  }

  private static boolean hasOffset(String dateTime) {
    int time = dateTime.indexOf('T');
    return time > 0 && (dateTime.endsWith("Z") || dateTime.indexOf('+', time) > 0 || dateTime.indexOf('-', time) > 0);
  }
}
