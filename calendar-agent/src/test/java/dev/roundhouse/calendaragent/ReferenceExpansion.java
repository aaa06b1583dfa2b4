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
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.property.DateProperty;

/**
 * The straightforward expansion the store's faster one must agree with: every VEVENT through ical4j's
 * {@code calculateRecurrenceSet} over the query's window (a day wider each side), overrides applied, filtered,
 * sorted, capped. Daily and slower rules only (the clamping of sub-daily ones is not repeated here). Stateless.
 */
final class ReferenceExpansion {
  private ReferenceExpansion() {}

  static Expansion.Result expand(String calendarId, Calendar calendar, ZoneId zone, Instant from, Instant to, int limit) {
    List<VEvent> events = calendar.getComponents(net.fortuna.ical4j.model.Component.VEVENT);
    Map<String, Set<Instant>> overridden = new HashMap<>();
    for (VEvent event : events) {
      event.getProperty(Property.RECURRENCE_ID).ifPresent(rid -> overridden
          .computeIfAbsent(uid(event), k -> new HashSet<>()).add(Expansion.instantOf(((DateProperty<?>) rid).getDate(), zone)));
    }
    ZonedDateTime begin = from.minus(Duration.ofDays(1)).atZone(zone);
    ZonedDateTime end = to.plus(Duration.ofDays(1)).atZone(zone);
    List<Occurrence> out = new ArrayList<>();
    for (VEvent event : events) {
      if (Expansion.isCancelled(event)) {
        continue;
      }
      Optional<Property> rid = event.getProperty(Property.RECURRENCE_ID);
      Instant recurrenceId = rid.map(p -> Expansion.instantOf(((DateProperty<?>) p).getDate(), zone)).orElse(null);
      boolean recurring = event.getProperty(Property.RRULE).isPresent() || event.getProperty(Property.RDATE).isPresent();
      Set<Instant> replaced = recurrenceId == null ? overridden.getOrDefault(uid(event), Set.of()) : Set.of();
      for (Period<Temporal> period : event.calculateRecurrenceSet(new Period<Temporal>(begin, end))) {
        Instant start = Expansion.instantOf(period.getStart(), zone);
        Instant stop = Expansion.instantOf(period.getEnd(), zone);
        boolean overlaps = start.equals(stop) ? !start.isBefore(from) && start.isBefore(to) : start.isBefore(to) && stop.isAfter(from);
        if (replaced.contains(start) || !overlaps) {
          continue;
        }
        Temporal first = period.getStart();
        boolean allDay = first instanceof LocalDate;
        boolean floating = first instanceof LocalDateTime;
        ZoneId shown = allDay || floating ? zone : Expansion.zoneOf(event, zone);
        String title = Expansion.text(event, Property.SUMMARY);
        Optional<Titles.Title> parsed = Titles.parse(title);
        boolean anyRecurring = recurring || recurrenceId != null;
        out.add(new Occurrence(calendarId, uid(event),
            recurrenceId != null ? recurrenceId.toString() : anyRecurring ? start.toString() : null, title,
            parsed.map(Titles.Title::category).orElse(null), parsed.map(Titles.Title::subCategory).orElse(null),
            start.toString(), stop.toString(), shown.getId(),
            allDay ? first.toString() : start.atZone(shown).toLocalDateTime().toString(),
            allDay ? period.getEnd().toString() : stop.atZone(shown).toLocalDateTime().toString(),
            allDay, floating, anyRecurring, recurrenceId != null,
            event.getProperty(Property.STATUS).map(Property::getValue).orElse(null),
            event.getProperty(Property.TRANSP).map(p -> "TRANSPARENT".equalsIgnoreCase(p.getValue())).orElse(false),
            emptyToNull(Expansion.text(event, Property.LOCATION)), emptyToNull(Expansion.text(event, Property.DESCRIPTION))));
      }
    }
    out.sort(Comparator.comparing(Occurrence::start).thenComparing(Occurrence::uid));
    boolean capped = out.size() > limit;
    return new Expansion.Result(List.copyOf(capped ? out.subList(0, limit) : out), capped);
  }

  private static String uid(VEvent event) {
    return event.getUid().map(u -> u.getValue()).orElse("");
  }

  private static String emptyToNull(String text) {
    return text.isEmpty() ? null : text;
  }
}
