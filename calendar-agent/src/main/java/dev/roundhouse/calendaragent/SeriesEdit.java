package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.function.Predicate;

/**
 * Rewrites of a whole recurring series, as logical lines of its VEVENT blocks (master first is not required):
 * splitting it at an occurrence ("this and following") and moving it in time. Both keep every occurrence
 * the edit does not name exactly where it was, and keep RECURRENCE-IDs, EXDATEs and RDATEs in step with the
 * rule so overrides and exclusions still apply to the occurrences they were meant for. Stateless.
 */
final class SeriesEdit {
  private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss", Locale.ROOT);
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT);
  private static final List<String> DAY_PARTS = List.of("BYDAY", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS");
  private static final List<String> TIME_PARTS = List.of("BYHOUR", "BYMINUTE", "BYSECOND");

  private SeriesEdit() {}

  /** The series cut in two: the part before the cut (old UID) and the part from it on (new UID). */
  record Split(List<List<String>> before, List<List<String>> following, String newUid) {}

  /** The UID of the series split off {@code uid} at {@code cut}: derived from both, so re-staging is stable. */
  static String splitUid(String uid, Instant cut) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest((uid + "|" + cut).getBytes(StandardCharsets.UTF_8));
      return "roundhouse-split-" + HexFormat.of().formatHex(hash, 0, 8) + "@roundhouse";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Splits the series at the occurrence whose original start is {@code cut} (not the first one): the old
   * series ends just before it (UNTIL, in UTC for timed series, the day before for all-day ones; COUNT
   * replaced), and a new series with a new UID starts there with the rest of the rule (COUNT reduced by the
   * occurrences before the cut). RDATEs, EXDATEs and overrides at or after the cut move to the new series.
   */
  static Split split(List<List<String>> blocks, List<String> master, Instant cut, ZoneId calendarZone) {
    String uid = IcsEdit.value(IcsEdit.property(master, "UID").orElseThrow()).strip();
    String newUid = splitUid(uid, cut);
    String start = IcsEdit.property(master, "DTSTART").orElseThrow();
    boolean allDay = isDate(start);
    List<List<String>> before = new ArrayList<>();
    List<List<String>> following = new ArrayList<>();
    for (List<String> block : blocks) {
      if (block == master) {
        continue;
      }
      Instant rid = IcsEdit.instant(IcsEdit.property(block, "RECURRENCE-ID").orElseThrow(), calendarZone);
      if (rid.isBefore(cut)) {
        before.add(block);
      } else {
        following.add(IcsEdit.set(block, "UID", IcsText.textLine("UID", newUid)));
      }
    }
    // the old series: ends before the cut
    List<String> old = master;
    Optional<String> rule = IcsEdit.property(master, "RRULE");
    if (rule.isPresent()) {
      Map<String, String> parts = ruleParts(rule.get());
      parts.remove("COUNT");
      parts.put("UNTIL", untilBefore(start, cut, calendarZone));
      old = IcsEdit.set(old, "RRULE", ruleLine(parts));
    }
    old = keepValues(old, "RDATE", v -> v.isBefore(cut), start, calendarZone);
    old = keepValues(old, "EXDATE", v -> v.isBefore(cut), start, calendarZone);
    before.addFirst(IcsEdit.bumpSequence(old));
    // the new series: from the cut on
    List<String> fresh = IcsEdit.set(master, "UID", IcsText.textLine("UID", newUid));
    fresh = IcsEdit.set(fresh, "SEQUENCE", null);
    Instant oldStart = IcsEdit.instant(start, calendarZone);
    fresh = IcsEdit.set(fresh, "DTSTART", IcsEdit.like("DTSTART", start, cut, calendarZone));
    Optional<String> end = IcsEdit.property(master, "DTEND");
    if (end.isPresent()) {
      Instant newEnd = allDay
          ? localDate(cut, calendarZone).plusDays(ChronoUnit.DAYS.between(localDate(oldStart, calendarZone),
              localDate(IcsEdit.instant(end.get(), calendarZone), calendarZone))).atStartOfDay(calendarZone).toInstant()
          : cut.plus(Duration.between(oldStart, IcsEdit.instant(end.get(), calendarZone)));
      fresh = IcsEdit.set(fresh, "DTEND", IcsEdit.like("DTEND", start, newEnd, calendarZone));
    }
    if (rule.isPresent()) {
      Map<String, String> parts = ruleParts(rule.get());
      if (parts.containsKey("COUNT")) {
        int count = Integer.parseInt(parts.get("COUNT"));
        int used = ruleOccurrencesBefore(master, cut, calendarZone);
        parts.put("COUNT", String.valueOf(Math.max(1, count - used)));
      }
      fresh = IcsEdit.set(fresh, "RRULE", ruleLine(parts));
    }
    fresh = keepValues(fresh, "RDATE", v -> v.isAfter(cut), start, calendarZone);
    fresh = keepValues(fresh, "EXDATE", v -> !v.isBefore(cut), start, calendarZone);
    following.addFirst(fresh);
    return new Split(before, following, newUid);
  }

  /**
   * The series moved so that the occurrence originally at {@code reference} starts at {@code newStart}
   * (a date for an all-day series) and ends at {@code newEnd} (null: keep the length). Every occurrence moves
   * by the same wall-clock shift in the series' zone (or to {@code newStart}'s zone when it names another
   * IANA zone), so a 09:00 series stays at 10:00 on both sides of a DST change; RECURRENCE-IDs, EXDATEs,
   * RDATEs and UNTIL move with it, and overrides that kept their original time move too.
   */
  static List<List<String>> shift(List<List<String>> blocks, List<String> master, Instant reference,
      ZonedDateTime newStart, ZonedDateTime newEnd, LocalDate newStartDate, LocalDate newEndDate, ZoneId calendarZone) {
    String start = IcsEdit.property(master, "DTSTART").orElseThrow();
    boolean allDay = isDate(start);
    ZoneId oldZone = Expansion.zoneOfLine(start, calendarZone);
    Optional<String> endLine = IcsEdit.property(master, "DTEND");
    // the new master DTSTART line, and how to move any instant of the series
    String newStartLine;
    UnaryOperator<Instant> move;
    String newEndLine = null;
    long dayShift;
    boolean timeShift;
    if (allDay) {
      if (newStartDate == null) {
        throw new RoundhouseException.InvalidInput("this series is all-day: give start as a date (YYYY-MM-DD)");
      }
      LocalDate refDate = localDate(reference, calendarZone);
      long days = ChronoUnit.DAYS.between(refDate, newStartDate);
      dayShift = days;
      timeShift = false;
      move = instant -> localDate(instant, calendarZone).plusDays(days).atStartOfDay(calendarZone).toInstant();
      LocalDate masterDate = localDate(IcsEdit.instant(start, calendarZone), calendarZone);
      LocalDate firstDate = masterDate.plusDays(days);
      newStartLine = IcsText.dateLine("DTSTART", firstDate);
      if (newEndDate != null || endLine.isPresent()) {
        long length = newEndDate != null ? ChronoUnit.DAYS.between(newStartDate, newEndDate)
            : ChronoUnit.DAYS.between(masterDate, localDate(IcsEdit.instant(endLine.get(), calendarZone), calendarZone));
        if (length < 1) {
          throw new RoundhouseException.InvalidInput("end " + newEndDate + " is not after start " + newStartDate + " (the end date is exclusive)");
        }
        newEndLine = IcsText.dateLine("DTEND", firstDate.plusDays(length));
      }
    } else {
      if (newStart == null) {
        throw new RoundhouseException.InvalidInput("this series is timed: give start as a time with a zone");
      }
      boolean floating = !start.contains("TZID=") && !IcsEdit.value(start).strip().endsWith("Z");
      ZoneId newZone = floating || !(newStart.getZone() instanceof ZoneOffset) && !newStart.getZone().equals(Times.UTC)
          ? (floating ? calendarZone : newStart.getZone()) : oldZone;
      LocalDateTime refLocal = LocalDateTime.ofInstant(reference, oldZone);
      LocalDateTime newLocal = newStart.withZoneSameInstant(newZone).toLocalDateTime();
      Duration delta = Duration.between(refLocal, newLocal);
      dayShift = ChronoUnit.DAYS.between(refLocal.toLocalDate(), newLocal.toLocalDate());
      timeShift = !refLocal.toLocalTime().equals(newLocal.toLocalTime());
      move = instant -> LocalDateTime.ofInstant(instant, oldZone).plus(delta).atZone(newZone).toInstant();
      LocalDateTime masterLocal = LocalDateTime.ofInstant(IcsEdit.instant(start, calendarZone), oldZone).plus(delta);
      ZonedDateTime first = masterLocal.atZone(newZone);
      newStartLine = floating ? "DTSTART:" + LOCAL.format(masterLocal) : IcsText.timeLine("DTSTART", first);
      Duration length = newEnd != null ? Duration.between(newStart.withZoneSameInstant(newZone).toLocalDateTime(),
              newEnd.withZoneSameInstant(newZone).toLocalDateTime())
          : endLine.map(l -> Duration.between(LocalDateTime.ofInstant(IcsEdit.instant(start, calendarZone), oldZone),
              LocalDateTime.ofInstant(IcsEdit.instant(l, calendarZone), oldZone))).orElse(null);
      if (length != null) {
        if (!length.isPositive()) {
          throw new RoundhouseException.InvalidInput("end " + newEnd + " is not after start " + newStart);
        }
        newEndLine = floating ? "DTEND:" + LOCAL.format(masterLocal.plus(length)) : IcsText.timeLine("DTEND", first.plus(length));
      }
    }
    Optional<String> rule = IcsEdit.property(master, "RRULE");
    if (rule.isPresent()) {
      Map<String, String> parts = ruleParts(rule.get());
      if (dayShift != 0 && DAY_PARTS.stream().anyMatch(parts::containsKey)) {
        throw new RoundhouseException.InvalidInput("moving this series to another day would not move its rule ("
            + IcsEdit.value(rule.get()) + " names the days): move the time only, or stage a new series and delete this one");
      }
      if (timeShift && TIME_PARTS.stream().anyMatch(parts::containsKey)) {
        throw new RoundhouseException.InvalidInput("moving this series to another time would not move its rule ("
            + IcsEdit.value(rule.get()) + " names the hours): stage a new series and delete this one");
      }
    }
    String finalStartLine = newStartLine;
    List<List<String>> out = new ArrayList<>();
    for (List<String> block : blocks) {
      if (block == master) {
        List<String> moved = IcsEdit.set(block, "DTSTART", newStartLine);
        moved = IcsEdit.set(moved, "DTEND", newEndLine);
        if (newEndLine != null) {
          moved = IcsEdit.set(moved, "DURATION", null);
        }
        if (rule.isPresent()) {
          Map<String, String> parts = ruleParts(rule.get());
          if (parts.containsKey("UNTIL")) {
            parts.put("UNTIL", untilMoved(parts.get("UNTIL"), finalStartLine, move, calendarZone));
          }
          moved = IcsEdit.set(moved, "RRULE", ruleLine(parts));
        }
        moved = rewriteValues(moved, "RDATE", start, finalStartLine, move, calendarZone);
        moved = rewriteValues(moved, "EXDATE", start, finalStartLine, move, calendarZone);
        out.add(IcsEdit.bumpSequence(moved));
      } else {
        String ridLine = IcsEdit.property(block, "RECURRENCE-ID").orElseThrow();
        Instant rid = IcsEdit.instant(ridLine, calendarZone);
        List<String> moved = IcsEdit.set(block, "RECURRENCE-ID", IcsEdit.like("RECURRENCE-ID", finalStartLine, move.apply(rid), calendarZone));
        Optional<String> ownStart = IcsEdit.property(block, "DTSTART");
        if (ownStart.isPresent() && IcsEdit.instant(ownStart.get(), calendarZone).equals(rid)) {
          // the override kept its original time: it moves with the series
          Instant ownEnd = IcsEdit.property(block, "DTEND").map(l -> IcsEdit.instant(l, calendarZone)).orElse(null);
          moved = IcsEdit.set(moved, "DTSTART", IcsEdit.like("DTSTART", finalStartLine, move.apply(rid), calendarZone));
          if (ownEnd != null) {
            moved = IcsEdit.set(moved, "DTEND", IcsEdit.like("DTEND", finalStartLine, move.apply(rid).plus(Duration.between(rid, ownEnd)), calendarZone));
          }
        }
        out.add(IcsEdit.bumpSequence(moved));
      }
    }
    return out;
  }

  private static boolean isDate(String line) {
    return IcsEdit.value(line).strip().length() == 8;
  }

  private static LocalDate localDate(Instant instant, ZoneId zone) {
    return instant.atZone(zone).toLocalDate();
  }

  /** UNTIL just before {@code cut}, in the form RFC 5545 asks for the series' DTSTART. */
  private static String untilBefore(String start, Instant cut, ZoneId calendarZone) {
    if (isDate(start)) {
      return DATE.format(localDate(cut, calendarZone).minusDays(1));
    }
    Instant last = cut.minusSeconds(1);
    if (start.contains("TZID=") || IcsEdit.value(start).strip().endsWith("Z")) {
      return LOCAL.format(last.atOffset(ZoneOffset.UTC)) + "Z";
    }
    return LOCAL.format(last.atZone(calendarZone)); // floating series, floating UNTIL
  }

  private static String untilMoved(String until, String newStart, UnaryOperator<Instant> move, ZoneId calendarZone) {
    Instant old = IcsEdit.instant("UNTIL:" + until, calendarZone);
    Instant moved = move.apply(old);
    if (until.length() == 8) {
      return DATE.format(localDate(moved, calendarZone));
    }
    if (until.endsWith("Z")) {
      return LOCAL.format(moved.atOffset(ZoneOffset.UTC)) + "Z";
    }
    return LOCAL.format(moved.atZone(calendarZone));
  }

  static Map<String, String> ruleParts(String ruleLine) {
    Map<String, String> parts = new LinkedHashMap<>();
    for (String part : IcsEdit.value(ruleLine).strip().split(";")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        parts.put(part.substring(0, eq).toUpperCase(Locale.ROOT), part.substring(eq + 1));
      }
    }
    return parts;
  }

  private static String ruleLine(Map<String, String> parts) {
    StringBuilder out = new StringBuilder("RRULE:");
    parts.forEach((name, value) -> out.append(out.length() > 6 ? ";" : "").append(name).append('=').append(value));
    return out.toString();
  }

  /** {@code block} with only the {@code property} values (RDATE, EXDATE) that {@code keep} accepts, each in the master's form. */
  private static List<String> keepValues(List<String> block, String property, Predicate<Instant> keep, String start, ZoneId calendarZone) {
    List<String> out = new ArrayList<>();
    for (String line : block) {
      if (!IcsEdit.name(line).equals(property)) {
        out.add(line);
        continue;
      }
      for (Instant value : values(line, calendarZone)) {
        if (keep.test(value)) {
          out.add(IcsEdit.like(property, start, value, calendarZone));
        }
      }
    }
    return out;
  }

  private static List<String> rewriteValues(List<String> block, String property, String oldStart, String newStart,
      UnaryOperator<Instant> move, ZoneId calendarZone) {
    List<String> out = new ArrayList<>();
    for (String line : block) {
      if (!IcsEdit.name(line).equals(property)) {
        out.add(line);
        continue;
      }
      for (Instant value : values(line, calendarZone)) {
        out.add(IcsEdit.like(property, newStart, move.apply(value), calendarZone));
      }
    }
    return out;
  }

  /** The instants of a multi-valued date line (a PERIOD value counts by its start). */
  private static List<Instant> values(String line, ZoneId calendarZone) {
    String head = line.substring(0, line.indexOf(':'));
    List<Instant> out = new ArrayList<>();
    for (String value : IcsEdit.value(line).split(",")) {
      String first = value.strip().split("/")[0];
      if (!first.isEmpty()) {
        out.add(IcsEdit.instant(head + ":" + first, calendarZone));
      }
    }
    return out;
  }

  /** How many occurrences the series' RRULE alone (no RDATE, no EXDATE) generates before {@code cut}. */
  private static int ruleOccurrencesBefore(List<String> master, Instant cut, ZoneId calendarZone) {
    List<String> bare = new ArrayList<>();
    for (String line : master) {
      if (!List.of("RDATE", "EXDATE", "STATUS").contains(IcsEdit.name(line))) {
        bare.add(line);
      }
    }
    String text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Roundhouse//count//EN\r\n" + IcsEdit.fold(bare) + "END:VCALENDAR\r\n";
    Instant first = IcsEdit.instant(IcsEdit.property(master, "DTSTART").orElseThrow(), calendarZone);
    return (int) Expansion.expand("count", CalendarStore.parse("count", text), calendarZone, first, cut, Expansion.MAX_OCCURRENCES)
        .occurrences().stream().filter(o -> Instant.parse(o.start()).isBefore(cut)).count();
  }
}
