package dev.roundhouse.calendaragent;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.Locale;
import java.util.Random;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * The calendar benchmark: one month's range query over a generated 5,000-event calendar (a fifth of them
 * recurring: daily, weekly, monthly, across zones and DST), cold and warm through the store, against plain
 * ical4j expansion of every event per query in the same run. Prints ratios. Run with
 * {@code java -cp <module classpath> dev.roundhouse.calendaragent.CalendarBench [events] [rounds]}.
 */
final class CalendarBench {
  private CalendarBench() {}

  public static void main(String[] args) throws IOException {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    PrintStream out = System.out;
    Path file = Files.createTempFile("bench", ".ics");
    try {
      Files.writeString(file, generate(events, new Random(42)));
      ZoneId zone = ZoneId.of("Europe/Berlin");
      Instant from = ZonedDateTime.of(2026, 3, 1, 0, 0, 0, 0, zone).toInstant();
      Instant to = ZonedDateTime.of(2026, 4, 1, 0, 0, 0, 0, zone).toInstant();
      CalendarStore store = new CalendarStore(java.util.List.of(new CalendarSource("bench", file, false, zone)), () -> null);

      long start = System.nanoTime();
      int cold = store.read("bench").expand("bench", zone, from, to, Expansion.MAX_OCCURRENCES, null).occurrences().size();
      long coldNanos = System.nanoTime() - start;

      // cold again, with the JVM warm: the file changes (a new version), so it is read, parsed and expanded anew
      Files.writeString(file, Files.readString(file) + "\r\n");
      start = System.nanoTime();
      Snapshot changed = store.read("bench");
      long parseNanos = System.nanoTime() - start;
      changed.expand("bench", zone, from, to, Expansion.MAX_OCCURRENCES, null);
      long recoldNanos = System.nanoTime() - start;

      long warmNanos = Long.MAX_VALUE;
      for (int i = 0; i < rounds; i++) {
        start = System.nanoTime();
        store.read("bench").expand("bench", zone, from, to, Expansion.MAX_OCCURRENCES, null);
        warmNanos = Math.min(warmNanos, System.nanoTime() - start);
      }

      Calendar parsed = CalendarStore.parse("bench", Files.readString(file));
      long plainNanos = Long.MAX_VALUE;
      int plain = 0;
      for (int i = 0; i < rounds; i++) {
        start = System.nanoTime();
        plain = 0;
        for (VEvent event : parsed.<VEvent>getComponents(Component.VEVENT)) {
          plain += event.calculateRecurrenceSet(new Period<Temporal>(from.atZone(zone), to.atZone(zone))).size();
        }
        plainNanos = Math.min(plainNanos, System.nanoTime() - start);
      }
      out.printf(Locale.ROOT, "calendar bench: %d events (%d KB), March 2026 in Europe/Berlin%n", events, Files.size(file) / 1024);
      out.printf(Locale.ROOT, "  plain ical4j expansion per query (parsed once): %8.1f ms, %d periods (best of %d)%n", plainNanos / 1e6, plain, rounds);
      out.printf(Locale.ROOT, "  store, cold, first query of the JVM:            %8.1f ms, %d occurrences%n", coldNanos / 1e6, cold);
      out.printf(Locale.ROOT, "  store, cold after a change (read+parse+expand): %8.1f ms (parse %.1f ms)%n", recoldNanos / 1e6, parseNanos / 1e6);
      out.printf(Locale.ROOT, "  store, warm (same version, same range):         %8.3f ms (best of %d)%n", warmNanos / 1e6, rounds);
      out.printf(Locale.ROOT, "  warm is %.0fx faster than plain; cold after a change is %.2fx plain%n", (double) plainNanos / warmNanos, (double) recoldNanos / plainNanos);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  static String generate(int count, Random random) {
    String[] zones = {"Europe/Berlin", "America/New_York", "Australia/Sydney", "UTC"};
    String[] rules = {"FREQ=DAILY;COUNT=200", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;INTERVAL=2", "FREQ=MONTHLY;BYMONTHDAY=15"};
    StringBuilder out = new StringBuilder("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Roundhouse//bench//EN\r\n");
    for (int i = 0; i < count; i++) {
      String zone = zones[i % zones.length];
      ZonedDateTime start = ZonedDateTime.of(2025, 1, 1, 8, 0, 0, 0, ZoneId.of(zone)).plusDays(random.nextInt(730)).plusMinutes(30L * random.nextInt(20));
      String local = String.format(Locale.ROOT, "%04d%02d%02dT%02d%02d00", start.getYear(), start.getMonthValue(), start.getDayOfMonth(), start.getHour(), start.getMinute());
      String end = String.format(Locale.ROOT, "%04d%02d%02dT%02d%02d00", start.getYear(), start.getMonthValue(), start.getDayOfMonth(), start.getHour() + 1, start.getMinute());
      String tz = zone.equals("UTC") ? ":" : ";TZID=" + zone + ":";
      out.append("BEGIN:VEVENT\r\nUID:bench-").append(i).append("\r\nDTSTAMP:20250101T000000Z\r\n")
          .append("DTSTART").append(tz).append(local).append(zone.equals("UTC") ? "Z" : "").append("\r\n")
          .append("DTEND").append(tz).append(end).append(zone.equals("UTC") ? "Z" : "").append("\r\n");
      if (i % 5 == 0) {
        out.append("RRULE:").append(rules[(i / 5) % rules.length]).append("\r\n");
      }
      out.append("SUMMARY:Bench - Load - Event ").append(i).append("\r\nEND:VEVENT\r\n");
    }
    return out.append("END:VCALENDAR\r\n").toString();
  }
}
