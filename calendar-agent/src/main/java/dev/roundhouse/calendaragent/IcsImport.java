package dev.roundhouse.calendaragent;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.property.DateProperty;

/**
 * An iCalendar document fetched from the web, read as events an agent can stage: each series or single
 * event once (recurrence is not expanded, its rule is shown), times written the way the stage operations
 * take them ({@code 2026-03-02T09:00[Europe/Berlin]}, {@code ...Z}, or a date). Stateless.
 */
final class IcsImport {
  static final int MAX_EVENTS = 500;

  private IcsImport() {}

  /** An event found in a fetched calendar, ready to be given (with a taxonomy title) to calendar_stage_create. */
  record Found(String uid, String title, String start, String end, boolean allDay, String rrule, String location, String description) {}

  record Result(List<Found> events, String note) {}

  static Result read(String ics, ZoneId floatingZone) {
    Calendar calendar;
    try {
      calendar = CalendarStore.parse("fetched", ics);
    } catch (RuntimeException e) {
      return new Result(List.of(), "the iCalendar could not be read: " + e.getMessage());
    }
    List<Found> found = new ArrayList<>();
    int skipped = 0;
    for (VEvent event : calendar.<VEvent>getComponents(Component.VEVENT)) {
      if (event.getProperty(Property.RECURRENCE_ID).isPresent()) {
        continue;
      }
      if (found.size() >= MAX_EVENTS) {
        skipped++;
        continue;
      }
      Optional<Property> start = event.getProperty(Property.DTSTART);
      if (start.isEmpty()) {
        continue;
      }
      ZoneId zone = Expansion.zoneOf(event, floatingZone);
      Temporal first = ((DateProperty<?>) start.get()).getDate();
      Temporal last = event.getProperty(Property.DTEND).map(p -> (Temporal) ((DateProperty<?>) p).getDate()).orElse(null);
      found.add(new Found(Expansion.text(event, Property.UID), Expansion.text(event, Property.SUMMARY),
          written(first, zone, floatingZone), last == null ? null : written(last, zone, floatingZone), first instanceof LocalDate,
          event.getProperty(Property.RRULE).map(Property::getValue).orElse(null),
          emptyToNull(Expansion.text(event, Property.LOCATION)), emptyToNull(Expansion.text(event, Property.DESCRIPTION))));
    }
    return new Result(List.copyOf(found), skipped == 0 ? null : skipped + " more events were left out (at most " + MAX_EVENTS + ")");
  }

  private static String written(Temporal time, ZoneId zone, ZoneId floatingZone) {
    return switch (time) {
      case LocalDate date -> date.toString();
      case ZonedDateTime zoned -> zoned.withZoneSameInstant(zone).toLocalDateTime() + "[" + zone.getId() + "]";
      case OffsetDateTime offset -> offset.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime() + "Z";
      case LocalDateTime local -> local + "[" + floatingZone.getId() + "]";
      default -> time.toString();
    };
  }

  private static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
