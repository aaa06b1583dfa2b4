package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.calendaragent.CalendarOps.StageUpdate;
import dev.roundhouse.hub.core.Json;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What an update proposal changes, for people: the time (the occurrence the change is anchored on, before
 * and after), the title, the location and the description, each with its old and new value. It is the
 * proposal's {@code changes} (structured) and {@code summary} (one line, in the decision's title too), the
 * same in every scope: for one occurrence the anchor is that occurrence as it is now; for "this and
 * following" the occurrence the series is cut at, in its original slot; for a whole series its first
 * occurrence (or the one named by {@code recurrence_id}); for a single event the event.
 *
 * <p>Not thread-safe to modify: {@code changes} is a JSON tree the proposal's request takes over; nothing
 * changes it after {@link #of} returns.
 */
record UpdateChanges(ArrayNode changes, String summary) {
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

  /** The anchor occurrence's time: {@code start} and {@code end} in {@code zone} (dates for an all-day event, end exclusive). */
  private record Slot(ZonedDateTime start, ZonedDateTime end, boolean allDay) {
    ObjectNode json() {
      ObjectNode node = Json.mapper().createObjectNode();
      node.put("start_local", allDay ? start.toLocalDate().toString() : start.toLocalDateTime().toString());
      node.put("end_local", allDay ? end.toLocalDate().toString() : end.toLocalDateTime().toString());
      node.put("zone", start.getZone().getId());
      return node;
    }
  }

  /**
   * @param source the block whose fields the change replaces (the occurrence's override for scope
   *     {@code this}, else the series' master or the single event)
   * @param occurrence the occurrence named by {@code recurrence_id}, or null
   * @param title the new title (normalised), or null when it stays
   */
  static UpdateChanges of(String scope, List<String> master, List<String> source, Occurrence occurrence, ZoneId calendarZone,
      StageUpdate in, Titles.Title title) {
    ArrayNode changes = Json.mapper().createArrayNode();
    List<String> said = new ArrayList<>();
    if (in.start() != null || in.end() != null) {
      Slot before = anchor(scope, master, occurrence, calendarZone);
      Slot after = moved(before, in);
      if (!after.equals(before)) {
        ObjectNode change = changes.addObject().put("field", "time");
        change.set("before", before.json());
        change.set("after", after.json());
        said.add(describe(before, after));
      }
    }
    if (title != null) {
      String old = text(source, "SUMMARY").orElse("");
      if (!old.equals(title.text())) {
        changes.addObject().put("field", "title").put("before", old).put("after", title.text());
        said.add("renamed from \"" + old + "\" to \"" + title.text() + "\"");
      }
    }
    if (in.location() != null) {
      String old = text(source, "LOCATION").orElse(null);
      String now = in.location().isBlank() ? null : in.location().strip();
      if (!Objects.equals(old, now)) {
        changes.addObject().put("field", "location").put("before", old).put("after", now);
        said.add(old == null ? "location set to \"" + now + "\""
            : now == null ? "location \"" + old + "\" removed"
            : "location changed from \"" + old + "\" to \"" + now + "\"");
      }
    }
    if (in.description() != null) {
      String old = text(source, "DESCRIPTION").orElse(null);
      String now = in.description().isBlank() ? null : in.description().strip();
      if (!Objects.equals(old, now)) {
        changes.addObject().put("field", "description").put("before", old).put("after", now);
        said.add(old == null ? "description added" : now == null ? "description removed" : "description changed");
      }
    }
    return new UpdateChanges(changes, String.join("; ", said));
  }

  /** The anchor occurrence as it is now. */
  private static Slot anchor(String scope, List<String> master, Occurrence occurrence, ZoneId calendarZone) {
    if (scope.equals("this")) {
      ZoneId zone = ZoneId.of(occurrence.zone());
      return new Slot(Instant.parse(occurrence.start()).atZone(zone), Instant.parse(occurrence.end()).atZone(zone), occurrence.allDay());
    }
    String startLine = IcsEdit.property(master, "DTSTART").orElseThrow();
    boolean allDay = IcsEdit.value(startLine).strip().length() == 8;
    ZoneId zone = allDay ? calendarZone : Expansion.zoneOfLine(startLine, calendarZone);
    Instant masterStart = IcsEdit.instant(startLine, calendarZone);
    Instant masterEnd = IcsEdit.property(master, "DTEND").map(line -> IcsEdit.instant(line, calendarZone))
        .orElse(allDay ? masterStart.atZone(zone).plusDays(1).toInstant() : masterStart);
    Instant start = occurrence != null ? Instant.parse(occurrence.recurrenceId()) : masterStart; // the original slot
    ZonedDateTime from = start.atZone(zone);
    ZonedDateTime to = allDay
        ? from.plusDays(Math.max(1, Duration.between(masterStart, masterEnd).toDays()))
        : from.plus(Duration.between(masterStart, masterEnd));
    return new Slot(from, to, allDay);
  }

  /** The anchor moved as the input asks: a missing start keeps the start, a missing end keeps the length. */
  private static Slot moved(Slot before, StageUpdate in) {
    if (before.allDay()) {
      LocalDate start = in.start() == null ? before.start().toLocalDate() : Times.parseDate("start", in.start());
      long days = Math.max(1, Duration.between(before.start(), before.end()).toDays());
      LocalDate end = in.end() == null ? start.plusDays(days) : Times.parseDate("end", in.end());
      ZoneId zone = before.start().getZone();
      return new Slot(start.atStartOfDay(zone), end.atStartOfDay(zone), true);
    }
    ZonedDateTime start = in.start() == null ? before.start() : Times.parse("start", in.start());
    ZonedDateTime end = in.end() == null
        ? start.plus(Duration.between(before.start(), before.end()))
        : Times.parse("end", in.end()).withZoneSameInstant(start.getZone());
    return new Slot(start, end, false);
  }

  /** "moved from 09:00 to 10:00 on Tue 8 Dec", "moved from Mon 30 Mar 09:00 to Tue 31 Mar 10:00", and so on. */
  private static String describe(Slot before, Slot after) {
    if (before.allDay()) {
      if (!before.start().toLocalDate().equals(after.start().toLocalDate())) {
        return "moved from " + DAY.format(before.start()) + " to " + DAY.format(after.start());
      }
      return "now ends on " + DAY.format(after.end().minusDays(1)) + " instead of " + DAY.format(before.end().minusDays(1));
    }
    boolean sameZone = before.start().getZone().equals(after.start().getZone());
    boolean sameDay = sameZone && before.start().toLocalDate().equals(after.start().toLocalDate());
    boolean sameLength = Duration.between(before.start(), before.end()).equals(Duration.between(after.start(), after.end()));
    if (before.start().toInstant().equals(after.start().toInstant()) && sameZone) {
      return "now ends at " + TIME.format(after.end()) + " instead of " + TIME.format(before.end()) + " on " + DAY.format(after.start());
    }
    String from = sameLength ? at(before.start(), !sameDay, !sameZone) : span(before, !sameDay, !sameZone);
    String to = sameLength ? at(after.start(), !sameDay, !sameZone) : span(after, !sameDay, !sameZone);
    return "moved from " + from + " to " + to + (sameDay ? " on " + DAY.format(after.start()) : "");
  }

  private static String at(ZonedDateTime time, boolean withDay, boolean withZone) {
    return (withDay ? DAY.format(time) + " " : "") + TIME.format(time) + (withZone ? " " + time.getZone().getId() : "");
  }

  private static String span(Slot slot, boolean withDay, boolean withZone) {
    return (withDay ? DAY.format(slot.start()) + " " : "") + TIME.format(slot.start()) + "–" + TIME.format(slot.end())
        + (withZone ? " " + slot.start().getZone().getId() : "");
  }

  /** A text property's value, unescaped enough for display; absent or blank: empty. */
  private static Optional<String> text(List<String> block, String name) {
    return IcsEdit.property(block, name).map(IcsEdit::value)
        .map(value -> value.replace("\\,", ",").replace("\\;", ";").replace("\\n", " ").replace("\\N", " ").replace("\\\\", "\\").strip())
        .filter(value -> !value.isEmpty());
  }
}
