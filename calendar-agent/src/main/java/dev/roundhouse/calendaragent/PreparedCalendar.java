package dev.roundhouse.calendaragent;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
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
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.parameter.TzId;
import net.fortuna.ical4j.model.property.DateProperty;
import net.fortuna.ical4j.model.property.RRule;
import java.time.DateTimeException;
import java.time.OffsetDateTime;

/**
 * A parsed calendar made ready for range queries, once per version: every VEVENT's own facts (UID, title,
 * zone, status, …) read once; each single event (no RRULE or RDATE: plain events and RECURRENCE-ID
 * overrides) turned into its one occurrence, sorted by start, so a range finds them by binary search; and the
 * recurring series, which are the only ones ical4j expands per query. Overrides replace or cancel the series'
 * occurrences they name, as {@link Expansion} describes.
 *
 * <p>Immutable and thread-safe once built (the ical4j objects it holds are only read).
 */
final class PreparedCalendar {
  /** A VEVENT and what all its occurrences share. */
  private record Piece(VEvent event, String uid, Instant recurrenceId, boolean recurring, Duration step, Set<Instant> replaced, Set<Instant> excluded,
      ZoneId zone, String title, String category, String subCategory, String status, boolean transparent, String location, String description) {}

  private final String calendarId;
  private final ZoneId zone;
  private final List<Piece> series;
  private final List<Occurrence> singles;
  private final Instant[] singleStarts;
  private final Instant[] singleEnds;
  private final Duration longestSingle;
  private final boolean subDaily;
  private final List<String> warnings;

  /** A single event's one occurrence with its instants. */
  private record Single(Instant start, Instant end, Occurrence occurrence) {}

  private PreparedCalendar(String calendarId, ZoneId zone, List<Piece> series, List<Single> sorted, boolean subDaily, List<String> warnings) {
    this.calendarId = calendarId;
    this.zone = zone;
    this.series = List.copyOf(series);
    this.singles = sorted.stream().map(Single::occurrence).toList();
    this.singleStarts = sorted.stream().map(Single::start).toArray(Instant[]::new);
    this.singleEnds = sorted.stream().map(Single::end).toArray(Instant[]::new);
    Duration longest = Duration.ZERO;
    for (int i = 0; i < singleStarts.length; i++) {
      Duration length = Duration.between(singleStarts[i], singleEnds[i]);
      longest = length.compareTo(longest) > 0 ? length : longest;
    }
    this.longestSingle = longest;
    this.subDaily = subDaily;
    this.warnings = List.copyOf(warnings);
  }

  static PreparedCalendar of(String calendarId, Calendar calendar, ZoneId zone) {
    Map<String, Set<Instant>> overridden = new HashMap<>();
    List<VEvent> events = calendar.getComponents(net.fortuna.ical4j.model.Component.VEVENT);
    for (VEvent event : events) {
      Optional<Property> rid = event.getProperty(Property.RECURRENCE_ID);
      if (rid.isPresent()) {
        try {
          overridden.computeIfAbsent(uid(event), k -> new HashSet<>()).add(Expansion.instantOf(((DateProperty<?>) rid.get()).getDate(), zone));
        } catch (RuntimeException e) {
          // an unreadable RECURRENCE-ID: the override is reported below (if not cancelled) and replaces nothing
        }
      }
    }
    List<Piece> series = new ArrayList<>();
    List<Single> singles = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    boolean subDaily = false;
    for (VEvent event : events) {
      if (Expansion.isCancelled(event)) {
        continue; // a cancelled override drops its occurrence; a cancelled series has none
      }
      try {
        Piece piece = piece(event, zone, overridden);
        if (piece.recurring()) {
          series.add(piece);
          subDaily |= piece.step() != null;
        } else {
          single(piece, zone, calendarId).ifPresent(singles::add);
        }
      } catch (RuntimeException e) {
        warnings.add(warning(calendarId, event, e)); // one bad event never sinks the others
      }
    }
    singles.sort(Comparator.comparing(Single::start).thenComparing(single -> single.occurrence().uid()));
    return new PreparedCalendar(calendarId, zone, series, singles, subDaily, warnings);
  }

  /** What all occurrences of {@code event} share; throws when a time in it cannot be read. */
  private static Piece piece(VEvent event, ZoneId zone, Map<String, Set<Instant>> overridden) {
    String uid = uid(event);
    Instant recurrenceId = event.getProperty(Property.RECURRENCE_ID)
        .map(p -> Expansion.instantOf(((DateProperty<?>) p).getDate(), zone)).orElse(null);
    boolean recurring = event.getProperty(Property.RRULE).isPresent() || event.getProperty(Property.RDATE).isPresent();
    Optional<RRule<?>> rule = event.getProperty(Property.RRULE);
    Duration step = rule.map(r -> Expansion.stepOf(r.getRecur())).orElse(null);
    String title = Expansion.text(event, Property.SUMMARY);
    Optional<Titles.Title> parsed = Titles.parse(title);
    if (!recurring) {
      // a single event's end is read here, so an unreadable one is reported, not met later (its start by zoneOf)
      event.getProperty(Property.DTEND).ifPresent(p -> ((DateProperty<?>) p).getDate());
    }
    return new Piece(event, uid, recurrenceId, recurring, step,
        recurring && recurrenceId == null ? Set.copyOf(overridden.getOrDefault(uid, Set.of())) : Set.of(),
        recurring ? excluded(event, zone) : Set.of(),
        Expansion.zoneOf(event, zone), title, parsed.map(Titles.Title::category).orElse(null), parsed.map(Titles.Title::subCategory).orElse(null),
        event.getProperty(Property.STATUS).map(Property::getValue).orElse(null),
        event.getProperty(Property.TRANSP).map(p -> "TRANSPARENT".equalsIgnoreCase(p.getValue())).orElse(false),
        emptyToNull(Expansion.text(event, Property.LOCATION)), emptyToNull(Expansion.text(event, Property.DESCRIPTION)));
  }

  /**
   * The instants a series' EXDATEs exclude, whatever their form: ical4j drops an occurrence only for an EXDATE of
   * the same kind as DTSTART, so {@code EXDATE:20260309T080000Z} (UTC, as many clients write) would not remove the
   * 09:00 Berlin occurrence of a {@code DTSTART;TZID=Europe/Berlin} series. Floating and date values are read in
   * the series' zone (the calendar's for floating and all-day series).
   */
  private static Set<Instant> excluded(VEvent event, ZoneId calendarZone) {
    Set<Instant> out = new HashSet<>();
    ZoneId seriesZone = Expansion.zoneOf(event, calendarZone);
    Temporal first = event.getProperty(Property.DTSTART).map(p -> (Temporal) ((DateProperty<?>) p).getDate()).orElse(null);
    boolean floatingSeries = !(first instanceof ZonedDateTime || first instanceof OffsetDateTime);
    for (Property property : event.getProperties(Property.EXDATE)) {
      for (Object date : ((net.fortuna.ical4j.model.property.DateListProperty<?>) property).getDates()) {
        out.add(Expansion.instantOf((Temporal) date, floatingSeries ? calendarZone : seriesZone));
      }
    }
    return Set.copyOf(out);
  }

  /** What a query reports of an event it had to leave out, naming the unknown time zone where that was the reason. */
  private static String warning(String calendarId, VEvent event, RuntimeException failure) {
    String title = Expansion.text(event, Property.SUMMARY);
    String what = "calendar '" + calendarId + "': event '" + uid(event) + "'" + (title.isEmpty() ? "" : " (" + title + ")") + " left out: ";
    for (Property property : event.getProperties()) {
      Optional<TzId> tzid = property.getParameter(Parameter.TZID);
      if (tzid.isPresent() && property instanceof DateProperty<?> date) {
        try {
          date.getDate();
        } catch (DateTimeException e) {
          return what + "its " + property.getName() + " names the time zone '" + tzid.get().getValue()
              + "', which is neither an IANA zone nor a Windows zone, and the calendar has no VTIMEZONE for it";
        }
      }
    }
    return what + failure.getMessage();
  }

  /** Events left out of every query of this version, and why (see {@link #warning}). */
  List<String> warnings() {
    return warnings;
  }

  /** Whether some series recurs more often than daily (its expansion is clamped per query, see {@link Expansion}). */
  boolean hasSubDailyRules() {
    return subDaily;
  }

  /** Occurrences overlapping [from, to), of the event {@code onlyUid} when it is not null; see {@link Expansion#expand}. */
  Expansion.Result expand(Instant from, Instant to, int limit, String onlyUid) {
    List<Occurrence> out = new ArrayList<>();
    // single events: those starting after from - (the longest one's length) and before to
    for (int i = ExpansionCache.lowerBound(singleStarts, from.minus(longestSingle)); i < singleStarts.length && singleStarts[i].isBefore(to); i++) {
      Occurrence single = singles.get(i);
      if ((onlyUid == null || onlyUid.equals(single.uid())) && overlaps(singleStarts[i], singleEnds[i], from, to)) {
        out.add(single);
      }
    }
    // widen by a day so floating and all-day events (read in the calendar zone) are never cut off; filter after
    ZonedDateTime windowStart = from.minus(Duration.ofDays(1)).atZone(zone);
    ZonedDateTime windowEnd = to.plus(Duration.ofDays(1)).atZone(zone);
    boolean capped = false;
    List<String> problems = new ArrayList<>(warnings);
    for (Piece piece : series) {
      if (onlyUid != null && !onlyUid.equals(piece.uid())) {
        continue;
      }
      ZonedDateTime begin = windowStart;
      ZonedDateTime end = windowEnd;
      if (piece.step() != null) {
        // a sub-daily rule: expand at most about 2 * limit periods around the range
        Duration reach = piece.step().multipliedBy(limit);
        if (reach.compareTo(Duration.ofDays(1)) < 0) {
          begin = from.minus(reach).atZone(zone);
        }
        ZonedDateTime clampedEnd = from.plus(piece.step().multipliedBy(limit + 1L)).atZone(zone);
        if (clampedEnd.isBefore(end)) {
          end = clampedEnd;
          capped = true;
        }
      }
      try {
        List<Occurrence> found = new ArrayList<>();
        for (Period<Temporal> period : piece.event().calculateRecurrenceSet(new Period<Temporal>(begin, end))) {
          Instant start = Expansion.instantOf(period.getStart(), zone);
          Instant stop = Expansion.instantOf(period.getEnd(), zone);
          if (!piece.replaced().contains(start) && !piece.excluded().contains(start) && overlaps(start, stop, from, to)) {
            found.add(occurrence(calendarId, piece, period, start, stop, zone));
          }
        }
        out.addAll(found);
      } catch (RuntimeException e) {
        problems.add(warning(calendarId, piece.event(), e));
      }
    }
    out.sort(Comparator.comparing(Occurrence::start).thenComparing(Occurrence::uid));
    if (out.size() > limit) {
      out = new ArrayList<>(out.subList(0, limit));
      capped = true;
    }
    return new Expansion.Result(List.copyOf(out), capped, problems);
  }

  /** An occurrence overlaps [from, to); one of no length counts when it starts inside. */
  static boolean overlaps(Instant start, Instant stop, Instant from, Instant to) {
    return start.equals(stop) ? !start.isBefore(from) && start.isBefore(to) : start.isBefore(to) && stop.isAfter(from);
  }

  /** The one occurrence of a single event (none without a start). */
  private static Optional<Single> single(Piece piece, ZoneId zone, String calendarId) {
    Optional<Property> start = piece.event().getProperty(Property.DTSTART);
    if (start.isEmpty()) {
      return Optional.empty();
    }
    Temporal first = ((DateProperty<?>) start.get()).getDate();
    Optional<Property> end = piece.event().getProperty(Property.DTEND);
    Period<Temporal> period = null;
    if (piece.event().getProperty(Property.DURATION).isEmpty()) {
      if (end.isEmpty()) {
        // no end: a date lasts the day, a time no time (RFC 5545 3.6.1)
        period = new Period<>(first, first instanceof LocalDate date ? date.plusDays(1) : first);
      } else if (((DateProperty<?>) end.get()).getDate().getClass() == first.getClass()) {
        period = new Period<>(first, ((DateProperty<?>) end.get()).getDate());
      }
    }
    if (period == null) {
      // a DURATION, or an end of another kind than the start: as ical4j reads it, in a window around the start
      Instant at = Expansion.instantOf(first, zone);
      Set<Period<Temporal>> periods = piece.event().calculateRecurrenceSet(
          new Period<Temporal>(at.minus(Duration.ofDays(2)).atZone(zone), at.plus(Duration.ofDays(2)).atZone(zone)));
      period = periods.stream().findFirst().orElse(null);
      if (period == null) {
        return Optional.empty();
      }
    }
    Instant begins = Expansion.instantOf(period.getStart(), zone);
    Instant ends = Expansion.instantOf(period.getEnd(), zone);
    return Optional.of(new Single(begins, ends, occurrence(calendarId, piece, period, begins, ends, zone)));
  }

  private static Occurrence occurrence(String calendarId, Piece piece, Period<Temporal> period, Instant start, Instant stop, ZoneId calendarZone) {
    Temporal first = period.getStart();
    boolean allDay = first instanceof LocalDate;
    boolean floating = first instanceof LocalDateTime;
    ZoneId zone = allDay || floating ? calendarZone : piece.zone();
    String startLocal = allDay ? first.toString() : start.atZone(zone).toLocalDateTime().toString();
    String endLocal = allDay ? period.getEnd().toString() : stop.atZone(zone).toLocalDateTime().toString();
    boolean recurring = piece.recurring() || piece.recurrenceId() != null;
    String recurrenceId = piece.recurrenceId() != null ? piece.recurrenceId().toString() : recurring ? start.toString() : null;
    return new Occurrence(calendarId, piece.uid(), recurrenceId, piece.title(), piece.category(), piece.subCategory(),
        start.toString(), stop.toString(), zone.getId(), startLocal, endLocal, allDay, floating, recurring,
        piece.recurrenceId() != null, piece.status(), piece.transparent(), piece.location(), piece.description());
  }

  private static String uid(VEvent event) {
    return event.getUid().map(u -> u.getValue()).orElse("");
  }

  private static String emptyToNull(String text) {
    return text.isEmpty() ? null : text;
  }
}
