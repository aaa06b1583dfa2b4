package dev.roundhouse.calendaragent;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.fortuna.ical4j.model.TimeZone;
import net.fortuna.ical4j.model.TimeZoneRegistry;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import java.time.Instant;

/**
 * ICS edits at the text level, so a commit changes only the event it adds or removes and leaves every other
 * byte of the user's file as it was (no reformatting, no lost properties). Stateless; the zone registry is
 * thread-safe.
 */
final class IcsText {
  private static final String CRLF = "\r\n";
  private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss", Locale.ROOT);
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT);
  private static final Pattern TZID = Pattern.compile(";TZID=(\"[^\"]*\"|[^;:]*)");
  private static final TimeZoneRegistry ZONES = TimeZoneRegistryFactory.getInstance().createRegistry();

  private IcsText() {}

  /** A top-level component inside VCALENDAR, by line numbers [first, last] of {@link #lines}. */
  record Block(String name, String uid, int first, int last, String text) {}

  static List<String> lines(String text) {
    List<String> lines = new ArrayList<>(List.of(text.split("\r?\n", -1)));
    if (!lines.isEmpty() && lines.getLast().isEmpty()) {
      lines.removeLast();
    }
    return lines;
  }

  static List<Block> blocks(String text) {
    List<String> lines = lines(text);
    List<Block> blocks = new ArrayList<>();
    int depth = 0;
    int first = -1;
    String name = null;
    String uid = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String upper = line.toUpperCase(Locale.ROOT);
      if (upper.startsWith("BEGIN:")) {
        depth++;
        if (depth == 2) {
          first = i;
          name = upper.substring(6).strip();
          uid = null;
        }
      } else if (upper.startsWith("END:")) {
        if (depth == 2) {
          blocks.add(new Block(name, uid, first, i, String.join(CRLF, lines.subList(first, i + 1)) + CRLF));
        }
        depth--;
      } else if (depth == 2 && upper.startsWith("UID")) {
        StringBuilder value = new StringBuilder(line.substring(line.indexOf(':') + 1));
        for (int j = i + 1; j < lines.size() && (lines.get(j).startsWith(" ") || lines.get(j).startsWith("\t")); j++) {
          value.append(lines.get(j).substring(1));
        }
        uid = value.toString();
      }
    }
    return blocks;
  }

  /** {@code text} with {@code block} (and a VTIMEZONE for {@code zone}, if the file lacks one) added. */
  static String withEvent(String text, String event, ZoneId zone) {
    String base = text.isBlank()
        ? "BEGIN:VCALENDAR" + CRLF + "VERSION:2.0" + CRLF + "PRODID:-//Roundhouse//Calendar agent//EN" + CRLF + "END:VCALENDAR" + CRLF
        : text;
    List<String> lines = lines(base);
    int end = lines.size() - 1;
    while (end >= 0 && !lines.get(end).strip().equalsIgnoreCase("END:VCALENDAR")) {
      end--;
    }
    if (end < 0) {
      throw new IllegalStateException("no END:VCALENDAR");
    }
    List<ZoneId> zones = new ArrayList<>();
    if (zone != null) {
      zones.add(zone);
    }
    StringBuilder insert = timeZones(base, event, zones);
    insert.append(event);
    List<String> out = new ArrayList<>(lines.subList(0, end));
    out.addAll(lines(insert.toString()));
    out.addAll(lines.subList(end, lines.size()));
    return String.join(CRLF, out) + CRLF;
  }

  /**
   * {@code text} with the VEVENT blocks whose UID is {@code uid} replaced by {@code events} (CRLF lines,
   * possibly empty) at the place of the first of them, and a VTIMEZONE for each of {@code zones} the file
   * lacks.
   */
  static String withEventReplaced(String text, String uid, String events, List<ZoneId> zones) {
    List<String> lines = lines(text);
    List<Block> old = blocks(text).stream().filter(b -> b.name().equals("VEVENT") && uid.equals(b.uid())).toList();
    if (old.isEmpty()) {
      throw new IllegalStateException("no event " + uid);
    }
    StringBuilder insert = timeZones(text, events, zones);
    insert.append(events);
    List<String> out = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < old.size(); i++) {
      Block block = old.get(i);
      out.addAll(lines.subList(next, block.first()));
      if (i == 0) {
        out.addAll(lines(insert.toString()));
      }
      next = block.last() + 1;
    }
    out.addAll(lines.subList(next, lines.size()));
    return String.join(CRLF, out) + CRLF;
  }

  /** {@code text} without the VEVENT blocks whose UID is {@code uid}. */
  static String withoutEvent(String text, String uid) {
    List<String> lines = lines(text);
    List<Block> doomed = blocks(text).stream().filter(b -> b.name().equals("VEVENT") && uid.equals(b.uid())).toList();
    if (doomed.isEmpty()) {
      return text;
    }
    List<String> out = new ArrayList<>();
    int next = 0;
    for (Block block : doomed) {
      out.addAll(lines.subList(next, block.first()));
      next = block.last() + 1;
    }
    out.addAll(lines.subList(next, lines.size()));
    return String.join(CRLF, out) + CRLF;
  }

  /** VTIMEZONE blocks for {@code zones} and every TZID {@code events} name that {@code text} lacks. */
  private static StringBuilder timeZones(String text, String events, List<ZoneId> zones) {
    List<String> ids = new ArrayList<>();
    zones.forEach(zone -> ids.add(zone.getId()));
    Matcher tzid = TZID.matcher(events);
    while (tzid.find()) {
      ids.add(tzid.group(1).replace("\"", ""));
    }
    StringBuilder insert = new StringBuilder();
    for (String id : ids.stream().distinct().toList()) {
      ZoneId zone;
      try {
        zone = ZoneId.of(id);
      } catch (DateTimeException e) {
        continue; // not an IANA zone: the file must bring its own VTIMEZONE
      }
      if (needsTimeZone(zone) && !hasTimeZone(text, id)) {
        TimeZone timeZone = ZONES.getTimeZone(id);
        if (timeZone != null) {
          insert.append(timeZone.getVTimeZone().toString().replace("\r\n", "\n").replace("\n", CRLF));
        }
      }
    }
    return insert;
  }

  /**
   * Whether two runs of VEVENT blocks hold the same events, whatever the order of blocks, of properties in a
   * block, and the line folding: CalDAV servers such as Radicale re-serialise what they store.
   */
  static boolean sameEvents(String a, String b) {
    return canonical(a).equals(canonical(b));
  }

  private static List<String> canonical(String events) {
    List<String> blocks = new ArrayList<>();
    for (Block block : blocks("BEGIN:VCALENDAR" + CRLF + events + CRLF + "END:VCALENDAR" + CRLF)) {
      if (!block.name().equals("VEVENT")) {
        continue;
      }
      List<String> lines = new ArrayList<>(IcsEdit.unfold(block.text()));
      lines.removeIf(String::isBlank);
      lines.sort(null);
      blocks.add(String.join("\n", lines));
    }
    blocks.sort(null);
    return blocks;
  }

  private static boolean needsTimeZone(ZoneId zone) {
    return !(zone instanceof ZoneOffset) && !zone.normalized().equals(ZoneOffset.UTC);
  }

  private static boolean hasTimeZone(String text, String id) {
    return blocks(text).stream().anyMatch(b -> b.name().equals("VTIMEZONE")
        && lines(b.text()).stream().anyMatch(l -> l.equalsIgnoreCase("TZID:" + id)));
  }

  /** A DTSTART/DTEND line: a date, a UTC time, or a local time with its TZID. */
  static String timeLine(String property, ZonedDateTime time) {
    ZoneId zone = time.getZone();
    if (!needsTimeZone(zone)) {
      return property + ":" + LOCAL.format(time.withZoneSameInstant(ZoneOffset.UTC)) + "Z";
    }
    return property + ";TZID=" + zone.getId() + ":" + LOCAL.format(time);
  }

  static String dateLine(String property, LocalDate date) {
    return property + ";VALUE=DATE:" + DATE.format(date);
  }

  static String utc(Instant instant) {
    return LOCAL.format(instant.atOffset(ZoneOffset.UTC)) + "Z";
  }

  /** A content line, escaped as TEXT and folded at 75 octets. */
  static String textLine(String property, String value) {
    String escaped = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n");
    return fold(property + ":" + escaped);
  }

  static String fold(String line) {
    StringBuilder out = new StringBuilder();
    int octets = 0;
    for (int i = 0; i < line.length(); ) {
      int codePoint = line.codePointAt(i);
      int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
      if (octets + size > 75) {
        out.append(CRLF).append(' ');
        octets = 1;
      }
      out.appendCodePoint(codePoint);
      octets += size;
      i += Character.charCount(codePoint);
    }
    return out.toString();
  }
}
