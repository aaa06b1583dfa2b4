package dev.roundhouse.calendaragent;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.List;
import java.util.Optional;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.Recur;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.parameter.TzId;
import net.fortuna.ical4j.model.property.DateProperty;
import java.util.Locale;

/**
 * Expands a parsed calendar's events into occurrences in a range: RRULE, RDATE and EXDATE through ical4j,
 * RECURRENCE-ID overrides (moved and cancelled occurrences) applied here, since ical4j does not (a master
 * occurrence whose start equals an override's RECURRENCE-ID is replaced by it, or dropped when the override is
 * cancelled). Bounded: high-frequency rules are expanded over a clamped window and the total is capped;
 * either sets {@link Result#capped()}. The work is done by {@link PreparedCalendar}; this class holds the
 * entry point and what reading an event takes. Stateless.
 */
final class Expansion {
  /** The most occurrences one query returns. */
  static final int MAX_OCCURRENCES = 5_000;

  private Expansion() {}

  /**
   * Occurrences found, whether some were left out ({@link #MAX_OCCURRENCES}, a clamped sub-daily rule), and
   * warnings: events that could not be read or expanded (an unknown time zone without VTIMEZONE, ...), left out.
   */
  record Result(List<Occurrence> occurrences, boolean capped, List<String> warnings) {
    Result {
      warnings = List.copyOf(warnings);
    }

    Result(List<Occurrence> occurrences, boolean capped) {
      this(occurrences, capped, List.of());
    }
  }

  static Result expand(String calendarId, Calendar calendar, ZoneId calendarZone, Instant from, Instant to, int limit) {
    return expand(calendarId, calendar, calendarZone, from, to, limit, null);
  }

  /**
   * Occurrences overlapping [from, to), of the event {@code onlyUid} when it is not null, sorted by start. For
   * repeated queries of one version, prepare it once ({@link PreparedCalendar}) and let {@link ExpansionCache}
   * keep what was expanded.
   */
  static Result expand(String calendarId, Calendar calendar, ZoneId calendarZone, Instant from, Instant to, int limit, String onlyUid) {
    return PreparedCalendar.of(calendarId, calendar, calendarZone).expand(from, to, limit, onlyUid);
  }

  static boolean isCancelled(VEvent event) {
    return event.getProperty(Property.STATUS).map(p -> "CANCELLED".equalsIgnoreCase(p.getValue())).orElse(false);
  }

  /** How far apart a sub-daily rule's occurrences are; null for daily and slower rules. */
  static Duration stepOf(Recur<?> recur) {
    int interval = Math.max(1, recur.getInterval());
    return switch (recur.getFrequency()) {
      case SECONDLY -> Duration.ofSeconds(interval);
      case MINUTELY -> Duration.ofMinutes(interval);
      case HOURLY -> Duration.ofHours(interval);
      default -> null;
    };
  }

  /** The summary of a block of logical lines, unescaped enough for display. */
  static String text(List<String> lines) {
    return IcsEdit.property(lines, "SUMMARY").map(IcsEdit::value).orElse("")
        .replace("\\,", ",").replace("\\;", ";").replace("\\n", " ").replace("\\\\", "\\");
  }

  /**
   * The zone a DTSTART content line names: its TZID (an IANA zone, or a Windows name mapped by {@link WindowsZones}),
   * UTC for a Z time, else the calendar's.
   */
  static ZoneId zoneOfLine(String line, ZoneId calendarZone) {
    String head = line.substring(0, line.indexOf(':'));
    for (String part : head.split(";")) {
      if (part.toUpperCase(Locale.ROOT).startsWith("TZID=")) {
        return WindowsZones.zone(part.substring(5).replace("\"", "")).orElse(calendarZone);
      }
    }
    return IcsEdit.value(line).strip().endsWith("Z") ? Times.UTC : calendarZone;
  }

  static String text(VEvent event, String property) {
    return event.getProperty(property).map(Property::getValue).orElse("");
  }

  /**
   * The IANA zone an event's DTSTART names: its TZID if that is IANA, the CLDR zone of a Windows name, for another
   * name the file defines an IANA zone with the same rules ({@link WindowsZones}); UTC for a UTC time; else (and
   * for a VTIMEZONE no IANA zone matches) the calendar's. Throws when the TZID is unknown and the file lacks its
   * VTIMEZONE ({@link PreparedCalendar} reports that event as a warning).
   */
  static ZoneId zoneOf(VEvent event, ZoneId calendarZone) {
    Optional<Property> start = event.getProperty(Property.DTSTART);
    if (start.isEmpty()) {
      return calendarZone;
    }
    Optional<TzId> tzid = start.get().getParameter(Parameter.TZID);
    Temporal date = ((DateProperty<?>) start.get()).getDate();
    if (tzid.isPresent()) {
      Optional<ZoneId> named = WindowsZones.zone(tzid.get().getValue());
      if (named.isPresent()) {
        return named.get();
      }
      // a name of the file's own (a VTIMEZONE ical4j read the times with): an IANA zone with the same rules
      if (date instanceof ZonedDateTime zoned) {
        return WindowsZones.sameRules(zoned.getZone().getRules(), zoned.toInstant()).orElse(calendarZone);
      }
      return calendarZone;
    }
    return date instanceof OffsetDateTime ? Times.UTC : calendarZone;
  }

  /** Any ical4j temporal as an instant; dates and floating times are read in {@code zone}. */
  static Instant instantOf(Temporal temporal, ZoneId zone) {
    return switch (temporal) {
      case ZonedDateTime zoned -> zoned.toInstant();
      case OffsetDateTime offset -> offset.toInstant();
      case Instant instant -> instant;
      case LocalDateTime local -> local.atZone(zone).toInstant();
      case LocalDate date -> date.atStartOfDay(zone).toInstant();
      default -> throw new IllegalArgumentException("unsupported time " + temporal);
    };
  }
}
