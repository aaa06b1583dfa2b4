package dev.roundhouse.calendaragent;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.Recur;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.parameter.TzId;
import net.fortuna.ical4j.model.property.DateProperty;
import net.fortuna.ical4j.model.property.RRule;

/**
 * Expands a parsed calendar's events into occurrences in a range: RRULE, RDATE and EXDATE through ical4j,
 * RECURRENCE-ID overrides (moved and cancelled occurrences) applied here, since ical4j does not. Bounded:
 * high-frequency rules are expanded over a clamped window and the total is capped; either sets
 * {@link Result#capped()}. Stateless.
 */
final class Expansion {
  /** The most occurrences one query returns. */
  static final int MAX_OCCURRENCES = 5_000;

  private Expansion() {}

  record Result(List<Occurrence> occurrences, boolean capped) {}

  /** A VEVENT's identity and role. */
  private record Piece(VEvent event, String uid, Instant recurrenceId) {}

  static Result expand(String calendarId, Calendar calendar, ZoneId calendarZone, Instant from, Instant to, int limit) {
    return expand(calendarId, calendar, calendarZone, from, to, limit, null);
  }

  /** Occurrences overlapping [from, to), of the event {@code onlyUid} when it is not null. */
  static Result expand(String calendarId, Calendar calendar, ZoneId calendarZone, Instant from, Instant to, int limit, String onlyUid) {
    Map<String, Set<Instant>> overridden = new HashMap<>();
    List<Piece> pieces = new ArrayList<>();
    for (VEvent event : calendar.<VEvent>getComponents(net.fortuna.ical4j.model.Component.VEVENT)) {
      String uid = event.getUid().map(u -> u.getValue()).orElse("");
      if (onlyUid != null && !onlyUid.equals(uid)) {
        continue;
      }
      Optional<Property> rid = event.getProperty(Property.RECURRENCE_ID);
      Instant ridInstant = rid.map(p -> instantOf(((DateProperty<?>) p).getDate(), calendarZone)).orElse(null);
      if (ridInstant != null) {
        overridden.computeIfAbsent(uid, k -> new HashSet<>()).add(ridInstant);
      }
      pieces.add(new Piece(event, uid, ridInstant));
    }
    // widen by a day so floating and all-day events (read in the calendar zone) are never cut off; filter after
    ZonedDateTime windowStart = from.minus(Duration.ofDays(1)).atZone(calendarZone);
    ZonedDateTime windowEnd = to.plus(Duration.ofDays(1)).atZone(calendarZone);
    boolean capped = false;
    List<Occurrence> out = new ArrayList<>();
    for (Piece piece : pieces) {
      VEvent event = piece.event();
      boolean recurring = event.getProperty(Property.RRULE).isPresent() || event.getProperty(Property.RDATE).isPresent();
      ZonedDateTime begin = windowStart;
      ZonedDateTime end = windowEnd;
      Optional<RRule<?>> rule = event.getProperty(Property.RRULE);
      if (rule.isPresent()) {
        Duration step = stepOf(rule.get().getRecur());
        if (step != null) {
          // a sub-daily rule: expand at most about 2 * limit periods around the range
          Duration reach = step.multipliedBy(limit);
          if (reach.compareTo(Duration.ofDays(1)) < 0) {
            begin = from.minus(reach).atZone(calendarZone);
          }
          ZonedDateTime clampedEnd = from.plus(step.multipliedBy(limit + 1L)).atZone(calendarZone);
          if (clampedEnd.isBefore(end)) {
            end = clampedEnd;
            capped = true;
          }
        }
      }
      if (isCancelled(event)) {
        continue; // a cancelled override drops its occurrence; a cancelled series has none
      }
      Set<Period<Temporal>> periods = event.calculateRecurrenceSet(new Period<Temporal>(begin, end));
      Set<Instant> replaced = piece.recurrenceId() == null ? overridden.getOrDefault(piece.uid(), Set.of()) : Set.of();
      for (Period<Temporal> period : periods) {
        Instant start = instantOf(period.getStart(), calendarZone);
        Instant stop = instantOf(period.getEnd(), calendarZone);
        if (replaced.contains(start)) {
          continue;
        }
        boolean overlaps = start.equals(stop) ? !start.isBefore(from) && start.isBefore(to) : start.isBefore(to) && stop.isAfter(from);
        if (!overlaps) {
          continue;
        }
        out.add(occurrence(calendarId, piece, recurring || piece.recurrenceId() != null, period, start, stop, calendarZone));
      }
    }
    out.sort(Comparator.comparing(Occurrence::start).thenComparing(Occurrence::uid));
    if (out.size() > limit) {
      out = new ArrayList<>(out.subList(0, limit));
      capped = true;
    }
    return new Result(List.copyOf(out), capped);
  }

  private static boolean isCancelled(VEvent event) {
    return event.getProperty(Property.STATUS).map(p -> "CANCELLED".equalsIgnoreCase(p.getValue())).orElse(false);
  }

  /** How far apart a sub-daily rule's occurrences are; null for daily and slower rules. */
  private static Duration stepOf(Recur<?> recur) {
    int interval = Math.max(1, recur.getInterval());
    return switch (recur.getFrequency()) {
      case SECONDLY -> Duration.ofSeconds(interval);
      case MINUTELY -> Duration.ofMinutes(interval);
      case HOURLY -> Duration.ofHours(interval);
      default -> null;
    };
  }

  private static Occurrence occurrence(
      String calendarId, Piece piece, boolean recurring, Period<Temporal> period, Instant start, Instant stop, ZoneId calendarZone) {
    VEvent event = piece.event();
    Temporal first = period.getStart();
    boolean allDay = first instanceof LocalDate;
    boolean floating = first instanceof LocalDateTime;
    ZoneId zone = allDay || floating ? calendarZone : zoneOf(event, calendarZone);
    String title = text(event, Property.SUMMARY);
    Optional<Titles.Title> parsed = Titles.parse(title);
    String startLocal;
    String endLocal;
    if (allDay) {
      startLocal = first.toString();
      endLocal = period.getEnd().toString();
    } else {
      startLocal = start.atZone(zone).toLocalDateTime().toString();
      endLocal = stop.atZone(zone).toLocalDateTime().toString();
    }
    String recurrenceId = piece.recurrenceId() != null ? piece.recurrenceId().toString() : recurring ? start.toString() : null;
    boolean transparent = event.getProperty(Property.TRANSP).map(p -> "TRANSPARENT".equalsIgnoreCase(p.getValue())).orElse(false);
    return new Occurrence(
        calendarId, piece.uid(), recurrenceId, title,
        parsed.map(Titles.Title::category).orElse(null), parsed.map(Titles.Title::subCategory).orElse(null),
        start.toString(), stop.toString(), zone.getId(), startLocal, endLocal, allDay, floating, recurring,
        piece.recurrenceId() != null,
        event.getProperty(Property.STATUS).map(Property::getValue).orElse(null), transparent,
        emptyToNull(text(event, Property.LOCATION)), emptyToNull(text(event, Property.DESCRIPTION)));
  }

  /** The summary of a block of logical lines, unescaped enough for display. */
  static String text(List<String> lines) {
    return IcsEdit.property(lines, "SUMMARY").map(IcsEdit::value).orElse("")
        .replace("\\,", ",").replace("\\;", ";").replace("\\n", " ").replace("\\\\", "\\");
  }

  /** The zone a DTSTART content line names: its TZID, UTC for a Z time, else the calendar's. */
  static ZoneId zoneOfLine(String line, ZoneId calendarZone) {
    String head = line.substring(0, line.indexOf(':'));
    for (String part : head.split(";")) {
      if (part.toUpperCase(java.util.Locale.ROOT).startsWith("TZID=")) {
        try {
          return ZoneId.of(part.substring(5).replace("\"", ""));
        } catch (DateTimeException e) {
          return calendarZone;
        }
      }
    }
    return IcsEdit.value(line).strip().endsWith("Z") ? Times.UTC : calendarZone;
  }

  static String text(VEvent event, String property) {
    return event.getProperty(property).map(Property::getValue).orElse("");
  }

  private static String emptyToNull(String text) {
    return text.isEmpty() ? null : text;
  }

  /** The IANA zone an event's DTSTART names, else the calendar's (a UTC time is in UTC). */
  static ZoneId zoneOf(VEvent event, ZoneId calendarZone) {
    Optional<Property> start = event.getProperty(Property.DTSTART);
    if (start.isEmpty()) {
      return calendarZone;
    }
    Optional<TzId> tzid = start.get().getParameter(Parameter.TZID);
    if (tzid.isPresent()) {
      try {
        return ZoneId.of(tzid.get().getValue());
      } catch (DateTimeException e) {
        return calendarZone;
      }
    }
    return ((DateProperty<?>) start.get()).getDate() instanceof OffsetDateTime ? Times.UTC : calendarZone;
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
