package dev.roundhouse.calendaragent;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * The calendar benchmark: one month's range query over a generated 5,000-event calendar (a fifth of them
 * recurring: daily, weekly, monthly, across zones and DST) through the store, against plain ical4j expansion
 * of every event per query, measured month by month in the same run (each month: plain, then the store's
 * first query of that month on the version, then the same month again and a week inside it, best of
 * {@value #REPEATS} each; after a warm-up on a
 * copy over other months, so the JIT is warm as in a running hub), plus the cold queries. Prints medians and bests, and ratios to plain. Run with
 * {@code java -cp <module classpath> CalendarBench [events] [months]}.
 */
final class CalendarBench {
  /** Repeats of a query already answered once, of which the best counts (as a warm query is). */
  private static final int REPEATS = 5;

  private CalendarBench() {}

  public static void main(String[] args) throws IOException {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    int months = args.length > 1 ? Integer.parseInt(args[1]) : 12;
    PrintStream out = System.out;
    Path file = Files.createTempFile("bench", ".ics");
    try {
      Files.writeString(file, generate(events, new Random(42)));
      ZoneId zone = ZoneId.of("Europe/Berlin");
      CalendarStore store = new CalendarStore(List.of(new CalendarSource("bench", file, false, zone)), () -> null);
      YearMonth march = YearMonth.of(2026, 3);

      long start = System.nanoTime();
      int cold = query(store, zone, march.atDay(1), march.plusMonths(1).atDay(1)).occurrences().size();
      long coldNanos = System.nanoTime() - start;

      // cold again, with the JVM warm: the file changes (a new version), so it is read, parsed and expanded anew
      Files.writeString(file, Files.readString(file) + "\r\n");
      start = System.nanoTime();
      Snapshot changed = store.read("bench");
      long parseNanos = System.nanoTime() - start;
      query(store, zone, march.atDay(1), march.plusMonths(1).atDay(1));
      long recoldNanos = System.nanoTime() - start;

      Calendar parsed = CalendarStore.parse("bench", changed.text());
      List<VEvent> all = parsed.getComponents(Component.VEVENT);
      // warm the JIT on a copy (its own version and cache) over other months, as a long-running hub is
      Path copy = Files.createTempFile("bench-warmup", ".ics");
      try {
        Files.writeString(copy, changed.text());
        CalendarStore warmup = new CalendarStore(List.of(new CalendarSource("bench", copy, false, zone)), () -> null);
        for (int i = 0; i < months; i++) {
          YearMonth month = march.minusMonths(1 + i);
          Instant from = month.atDay(1).atStartOfDay(zone).toInstant();
          for (VEvent event : all) {
            event.calculateRecurrenceSet(new Period<Temporal>(from.atZone(zone), month.plusMonths(1).atDay(1).atStartOfDay(zone)));
          }
          for (int round = 0; round < 3; round++) {
            query(warmup, zone, month.atDay(1), month.plusMonths(1).atDay(1));
            query(warmup, zone, month.atDay(8), month.atDay(15));
          }
        }
      } finally {
        Files.deleteIfExists(copy);
      }
      long prepareNanos = Long.MAX_VALUE;
      for (int i = 0; i < 3; i++) {
        start = System.nanoTime();
        PreparedCalendar.of("bench", parsed, zone);
        prepareNanos = Math.min(prepareNanos, System.nanoTime() - start);
      }
      long[] plain = new long[months];
      long[] fresh = new long[months];
      long[] again = new long[months];
      long[] week = new long[months];
      int periods = 0;
      int occurrences = 0;
      for (int i = 0; i < months; i++) {
        YearMonth month = march.plusMonths(1 + i);
        Instant from = month.atDay(1).atStartOfDay(zone).toInstant();
        Instant to = month.plusMonths(1).atDay(1).atStartOfDay(zone).toInstant();
        start = System.nanoTime();
        int count = 0;
        for (VEvent event : all) {
          count += event.calculateRecurrenceSet(new Period<Temporal>(from.atZone(zone), to.atZone(zone))).size();
        }
        plain[i] = System.nanoTime() - start;
        periods += count;
        start = System.nanoTime();
        occurrences += query(store, zone, month.atDay(1), month.plusMonths(1).atDay(1)).occurrences().size();
        fresh[i] = System.nanoTime() - start;
        again[i] = Long.MAX_VALUE;
        week[i] = Long.MAX_VALUE;
        for (int round = 0; round < REPEATS; round++) {
          start = System.nanoTime();
          query(store, zone, month.atDay(1), month.plusMonths(1).atDay(1));
          again[i] = Math.min(again[i], System.nanoTime() - start);
          start = System.nanoTime();
          query(store, zone, month.atDay(8), month.atDay(15));
          week[i] = Math.min(week[i], System.nanoTime() - start);
        }
      }
      out.printf(Locale.ROOT, "calendar bench: %d events (%d KB) in Europe/Berlin; %d months from %s; median / best over the months%n",
          events, Files.size(file) / 1024, months, march.plusMonths(1));
      out.printf(Locale.ROOT, "  plain ical4j, every VEVENT per query (parsed once): %9.3f / %9.3f ms (%d periods a month on average)%n",
          median(plain), best(plain), periods / months);
      line(out, "store, a month not asked before on this version:  ", fresh, plain);
      line(out, "store, the same month again (best of 5):           ", again, plain);
      line(out, "store, a week inside it (days 8-14, best of 5):    ", week, plain);
      out.printf(Locale.ROOT, "  (the store returned %d occurrences a month on average, at most %d per query)%n",
          occurrences / months, Expansion.MAX_OCCURRENCES);
      out.printf(Locale.ROOT, "  preparing a version (once per version, warm JIT): %.1f ms (best of 3)%n", prepareNanos / 1e6);
      out.printf(Locale.ROOT, "  store, cold: first query of the JVM: %.1f ms, %d occurrences (March)%n", coldNanos / 1e6, cold);
      out.printf(Locale.ROOT, "  store, cold after the file changed: %.1f ms (read and parse %.1f ms, prepare and expand %.1f ms)%n",
          recoldNanos / 1e6, parseNanos / 1e6, (recoldNanos - parseNanos) / 1e6);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static Expansion.Result query(CalendarStore store, ZoneId zone, LocalDate from, LocalDate to) {
    return store.read(store.sources().getFirst().id()).expand("bench", zone, from.atStartOfDay(zone).toInstant(), to.atStartOfDay(zone).toInstant(),
        Expansion.MAX_OCCURRENCES, null);
  }

  private static void line(PrintStream out, String what, long[] nanos, long[] plain) {
    out.printf(Locale.ROOT, "  %s %9.3f / %9.3f ms, %.2fx faster than plain (medians)%n", what, median(nanos) , best(nanos),
        median(plain) / median(nanos));
  }

  private static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return (n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0) / 1e6;
  }

  private static double best(long[] nanos) {
    return Arrays.stream(nanos).min().orElse(0) / 1e6;
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
