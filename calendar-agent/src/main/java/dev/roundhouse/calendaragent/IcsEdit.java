package dev.roundhouse.calendaragent;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Edits of one event's VEVENT blocks as logical (unfolded) content lines: set or remove a property, add an
 * EXDATE or a RECURRENCE-ID in the master's own form (TZID, UTC, floating or date), bump SEQUENCE.
 * Stateless.
 */
final class IcsEdit {
  private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss", Locale.ROOT);
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT);

  private IcsEdit() {}

  /** One VEVENT block as logical lines, BEGIN and END included. */
  static List<String> unfold(String block) {
    List<String> logical = new ArrayList<>();
    for (String line : IcsText.lines(block)) {
      if ((line.startsWith(" ") || line.startsWith("\t")) && !logical.isEmpty()) {
        logical.set(logical.size() - 1, logical.getLast() + line.substring(1));
      } else {
        logical.add(line);
      }
    }
    return logical;
  }

  static String fold(List<String> logical) {
    StringBuilder out = new StringBuilder();
    for (String line : logical) {
      out.append(IcsText.fold(line)).append("\r\n");
    }
    return out.toString();
  }

  /** The upper-case property name of a content line. */
  static String name(String line) {
    int end = 0;
    while (end < line.length() && line.charAt(end) != ';' && line.charAt(end) != ':') {
      end++;
    }
    return line.substring(0, end).toUpperCase(Locale.ROOT);
  }

  static Optional<String> property(List<String> lines, String name) {
    return lines.stream().filter(l -> name(l).equals(name)).findFirst();
  }

  static boolean isOverride(List<String> lines) {
    return property(lines, "RECURRENCE-ID").isPresent();
  }

  /** {@code lines} with every {@code name} line replaced by {@code line}, or removed when it is null. */
  static List<String> set(List<String> lines, String name, String line) {
    List<String> out = new ArrayList<>();
    boolean placed = false;
    for (String current : lines) {
      if (name(current).equals(name)) {
        if (line != null && !placed) {
          out.add(line);
          placed = true;
        }
        continue;
      }
      if (current.equalsIgnoreCase("END:VEVENT") && line != null && !placed) {
        out.add(line);
        placed = true;
      }
      out.add(current);
    }
    return out;
  }

  /** Adds a line before END:VEVENT. */
  static List<String> add(List<String> lines, String line) {
    List<String> out = new ArrayList<>(lines.subList(0, lines.size() - 1));
    out.add(line);
    out.add(lines.getLast());
    return out;
  }

  static List<String> bumpSequence(List<String> lines) {
    int sequence = property(lines, "SEQUENCE").map(l -> {
      try {
        return Integer.parseInt(value(l).strip());
      } catch (NumberFormatException e) {
        return 0;
      }
    }).orElse(0);
    return set(lines, "SEQUENCE", "SEQUENCE:" + (sequence + 1));
  }

  static String value(String line) {
    return line.substring(line.indexOf(':') + 1);
  }

  private static Optional<String> parameter(String line, String parameter) {
    String head = line.substring(0, line.indexOf(':'));
    for (String part : head.split(";")) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).equalsIgnoreCase(parameter)) {
        return Optional.of(part.substring(eq + 1).replace("\"", ""));
      }
    }
    return Optional.empty();
  }

  /**
   * A {@code property} line (EXDATE, RECURRENCE-ID) for an occurrence that starts at {@code start}, in the
   * same form as the master's DTSTART line, so that it matches the rule's occurrences exactly.
   */
  static String like(String property, String masterStart, Instant start, ZoneId calendarZone) {
    if (parameter(masterStart, "VALUE").map(v -> v.equalsIgnoreCase("DATE")).orElse(false)) {
      return property + ";VALUE=DATE:" + DATE.format(start.atZone(calendarZone).toLocalDate());
    }
    Optional<String> tzid = parameter(masterStart, "TZID");
    if (tzid.isPresent()) {
      return property + ";TZID=" + tzid.get() + ":" + LOCAL.format(start.atZone(zone(tzid.get(), calendarZone)));
    }
    if (value(masterStart).strip().endsWith("Z")) {
      return property + ":" + LOCAL.format(start.atOffset(ZoneOffset.UTC)) + "Z";
    }
    return property + ":" + LOCAL.format(start.atZone(calendarZone));
  }

  /** The instant a DTSTART-like line names (dates and floating times in {@code calendarZone}). */
  static Instant instant(String line, ZoneId calendarZone) {
    String value = value(line).strip();
    if (value.length() == 8) {
      return LocalDate.parse(value, DATE).atStartOfDay(calendarZone).toInstant();
    }
    if (value.endsWith("Z")) {
      return LocalDateTime.parse(value.substring(0, value.length() - 1), LOCAL).toInstant(ZoneOffset.UTC);
    }
    ZoneId zone = parameter(line, "TZID").map(id -> zone(id, calendarZone)).orElse(calendarZone);
    return LocalDateTime.parse(value, LOCAL).atZone(zone).toInstant();
  }

  private static ZoneId zone(String id, ZoneId fallback) {
    try {
      return ZoneId.of(id);
    } catch (DateTimeException e) {
      return fallback;
    }
  }
}
