package dev.roundhouse.hub.schedules;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import net.fortuna.ical4j.model.Recur;

/**
 * An RFC 5545 RRULE expanded by ical4j on a zoneless wall clock ({@code Recur<LocalDateTime>}), from an anchor
 * that stands for DTSTART. {@link WallClockRecurrence} places the wall times in the zone, so the DST rules are the
 * same as cron's and do not depend on how ical4j resolves gaps.
 *
 * <p>What ical4j does not do the way a schedule needs is done here: UNTIL is taken out of the rule and applied
 * to instants (a {@code Z} time is an instant, not a wall time); COUNT is taken out and the first COUNT firings are
 * listed once, at parse. And ical4j stops an expansion after 1,000 rule periods without a candidate (its
 * {@code maxincrementcount}), which cuts off a MINUTELY rule limited to Mondays after a day; {@link #nextAfter}
 * therefore asks for windows of {@value #PERIODS_PER_WINDOW} periods, one after another, up to the horizon.
 *
 * <p>Cost: ical4j finds the period to start from by bisection, so an old anchor costs little; but each period it
 * expands costs some ten microseconds. So an expansion keeps the firings it found beyond the one asked for (2 the
 * first time, then twice as many each time up to {@value #BATCH}), and the calls that follow, such as a scheduler
 * asking for the next firing after each firing, answer from them in well under a microsecond.
 *
 * <p>Thread-safe. ical4j's {@code Recur} rebuilds its rule objects on every expansion, so expansions of the one
 * {@code Recur} take turns under {@link #expanding} (CPU only, no call-outs); the kept firings are an immutable
 * {@link Batch} replaced whole, so a racing reader sees one batch or the other.
 */
final class RruleRule implements WallRule {
  /** Rule periods per ical4j expansion: below its 1,000-empty-periods cut-off. */
  static final int PERIODS_PER_WINDOW = 900;
  /** How many firings one expansion keeps for the calls that follow. */
  static final int BATCH = 32;
  /** The most COUNT a rule may have; its firings are listed at parse. */
  static final int MAX_COUNT = 1000;

  private static final Set<String> PARTS = Set.of("FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMINUTE", "BYHOUR", "BYDAY",
      "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST");
  private static final Map<String, ChronoUnit> FREQUENCIES = Map.of(
      "MINUTELY", ChronoUnit.MINUTES,
      "HOURLY", ChronoUnit.HOURS,
      "DAILY", ChronoUnit.DAYS,
      "WEEKLY", ChronoUnit.WEEKS,
      "MONTHLY", ChronoUnit.MONTHS,
      "YEARLY", ChronoUnit.YEARS);

  /** Guards {@link #recur}, whose expansions change its fields. */
  private final ReentrantLock expanding = Locks.tracked("RRULE expansion");
  /** The rule without COUNT and UNTIL. */
  @GuardedBy("expanding")
  private final Recur<LocalDateTime> recur;
  private final LocalDateTime anchor;
  /** How far one expansion window reaches: {@value #PERIODS_PER_WINDOW} periods of the rule. */
  private final long windowAmount;
  private final ChronoUnit windowUnit;
  private final boolean everyHour;
  /** The firings of a COUNT rule, in order; null for a rule without COUNT. */
  private final List<LocalDateTime> counted;
  /** The last expansion, reused while it covers the question; replaced whole, so a racing reader sees one or the other. */
  private final AtomicReference<Batch> lastBatch = new AtomicReference<>();

  /** A parsed rule and its UNTIL as the last instant that may fire. */
  record Parsed(WallRule rule, Optional<Instant> until) {}

  private RruleRule(Recur<LocalDateTime> recur, LocalDateTime anchor, long windowAmount, ChronoUnit windowUnit, boolean everyHour,
      List<LocalDateTime> counted) {
    this.recur = recur;
    this.anchor = anchor;
    this.windowAmount = windowAmount;
    this.windowUnit = windowUnit;
    this.everyHour = everyHour;
    this.counted = counted;
  }

  static Parsed parse(String text, ZoneId zone, LocalDateTime anchor) {
    String body = text.regionMatches(true, 0, "RRULE:", 0, 6) ? text.substring(6).strip() : text;
    if (body.contains("\n") || body.contains("\r")) {
      throw invalid(text, "expected one RRULE line");
    }
    Map<String, String> parts = new LinkedHashMap<>();
    for (String part : body.split(";", -1)) {
      int equals = part.indexOf('=');
      if (equals <= 0 || equals == part.length() - 1) {
        throw invalid(text, "part \"" + part + "\" is not NAME=VALUE");
      }
      String name = part.substring(0, equals).strip().toUpperCase(Locale.ROOT);
      String value = part.substring(equals + 1).strip().toUpperCase(Locale.ROOT);
      if (name.equals("BYSECOND") || name.equals("RSCALE") || name.equals("SKIP")) {
        throw invalid(text, name + " is not supported: schedules fire on whole minutes of the Gregorian calendar");
      }
      if (!PARTS.contains(name)) {
        throw invalid(text, "unknown part " + name + " (known: FREQ, INTERVAL, COUNT, UNTIL, BYMONTH, BYWEEKNO, BYYEARDAY, "
            + "BYMONTHDAY, BYDAY, BYHOUR, BYMINUTE, BYSETPOS, WKST)");
      }
      if (parts.put(name, value) != null) {
        throw invalid(text, name + " is given twice");
      }
    }
    String frequency = parts.get("FREQ");
    if (frequency == null) {
      throw invalid(text, "FREQ is missing (FREQ=DAILY, WEEKLY, ...)");
    }
    if (frequency.equals("SECONDLY")) {
      throw invalid(text, "FREQ=SECONDLY is not supported: schedules fire at most once a minute");
    }
    ChronoUnit unit = FREQUENCIES.get(frequency);
    if (unit == null) {
      throw invalid(text, "FREQ=" + frequency + " is not one of MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY");
    }
    int interval = parts.containsKey("INTERVAL") ? positive(text, "INTERVAL", parts.get("INTERVAL"), Integer.MAX_VALUE) : 1;
    if (parts.containsKey("COUNT") && parts.containsKey("UNTIL")) {
      throw invalid(text, "COUNT and UNTIL together: a rule ends one way or the other");
    }
    Optional<Instant> until = Optional.ofNullable(parts.remove("UNTIL")).map(value -> until(text, value, zone));
    String count = parts.remove("COUNT");
    int limit = count == null ? 0 : positive(text, "COUNT", count, MAX_COUNT);

    StringBuilder ical = new StringBuilder();
    parts.forEach((name, value) -> ical.append(ical.isEmpty() ? "" : ";").append(name).append('=').append(value));
    Recur<LocalDateTime> recur;
    try {
      recur = new Recur<>(ical.toString(), false);
    } catch (RuntimeException e) { // ical4j reports bad values as IllegalArgumentException, DateTimeException, ...
      throw invalid(text, e.getMessage() == null ? e.toString() : e.getMessage());
    }
    boolean everyHour = (unit == ChronoUnit.MINUTES || unit == ChronoUnit.HOURS) && !parts.containsKey("BYHOUR");
    long windowAmount = (long) PERIODS_PER_WINDOW * interval;
    RruleRule infinite = new RruleRule(recur, anchor, windowAmount, unit, everyHour, null);
    LocalDateTime beforeAnchor = anchor.minusNanos(1);
    if (count == null) {
      if (until.isEmpty() && infinite.nextAfter(beforeAnchor).isEmpty()) {
        throw invalid(text, "never fires within " + HORIZON_YEARS + " years of its anchor " + anchor);
      }
      return new Parsed(infinite, until);
    }
    List<LocalDateTime> firings = new ArrayList<>(limit);
    Optional<LocalDateTime> next = infinite.nextAfter(beforeAnchor);
    while (next.isPresent() && firings.size() < limit) {
      firings.add(next.get());
      next = infinite.nextAfter(next.get());
    }
    return new Parsed(new RruleRule(null, anchor, windowAmount, unit, everyHour, List.copyOf(firings)), until);
  }

  @Override
  public Optional<LocalDateTime> nextAfter(LocalDateTime after) {
    if (counted != null) {
      int index = Collections.binarySearch(counted, after);
      int next = index >= 0 ? index + 1 : -index - 1;
      return next < counted.size() ? Optional.of(counted.get(next)) : Optional.empty();
    }
    Batch last = lastBatch.get();
    if (last != null && last.answers(after)) {
      return last.firstAfter(after);
    }
    Batch batch = expand(after, last == null ? 2 : Math.min(BATCH, last.size() * 2));
    lastBatch.set(batch);
    return batch.firstAfter(after);
  }

  /**
   * Up to {@code size} firings after {@code after}, in windows of {@value #PERIODS_PER_WINDOW} periods, until the
   * batch is full or the horizon is passed.
   */
  private Batch expand(LocalDateTime after, int size) {
    expanding.lock();
    try {
      return expandLocked(after, size);
    } finally {
      expanding.unlock();
    }
  }

  @GuardedBy("expanding")
  private Batch expandLocked(LocalDateTime after, int size) {
    LocalDateTime horizon = after.plusYears(HORIZON_YEARS);
    LocalDateTime start = after.isBefore(anchor) ? anchor.minusNanos(1) : after;
    List<LocalDateTime> firings = new ArrayList<>(size);
    while (true) {
      LocalDateTime end = start.plus(windowAmount, windowUnit);
      // windows share their bounds: a firing at one window's end is not listed again from the next
      LocalDateTime floor = firings.isEmpty() ? after : firings.getLast();
      recur.getDatesAsStream(anchor, start, end, -1)
          .filter(time -> time.isAfter(floor))
          .limit(size - firings.size())
          .forEach(firings::add);
      if (firings.size() == size || !end.isBefore(horizon)) {
        return new Batch(after, size, List.copyOf(firings));
      }
      start = end;
    }
  }

  /**
   * Every firing in (from, last of firings], so it answers {@link #nextAfter} for any time from {@code from} up to
   * before its last firing; {@code size} is how many were asked for, which the next expansion doubles.
   */
  private record Batch(LocalDateTime from, int size, List<LocalDateTime> firings) {
    boolean answers(LocalDateTime after) {
      return !after.isBefore(from) && !firings.isEmpty() && after.isBefore(firings.getLast());
    }

    Optional<LocalDateTime> firstAfter(LocalDateTime after) {
      int index = Collections.binarySearch(firings, after);
      int next = index >= 0 ? index + 1 : -index - 1;
      return next < firings.size() ? Optional.of(firings.get(next)) : Optional.empty();
    }
  }

  @Override
  public boolean firesEveryHour() {
    return everyHour;
  }

  private static int positive(String text, String name, String value, int max) {
    try {
      int number = Integer.parseInt(value);
      if (number >= 1 && number <= max) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below with the range
    }
    throw invalid(text, name + "=" + value + " is not a whole number in 1-" + max);
  }

  /**
   * UNTIL as the last instant that may fire: a UTC time ({@code Z}) as it is, a local time on the zone's wall
   * clock (at its later offset, so all of a repeated hour is included), a date through the end of that day.
   */
  private static Instant until(String text, String value, ZoneId zone) {
    try {
      if (value.length() == 8) {
        LocalDate date = LocalDate.parse(value, DateTimeFormatter.BASIC_ISO_DATE);
        return date.plusDays(1).atStartOfDay(zone).toInstant().minusNanos(1);
      }
      DateTimeFormatter format = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss", Locale.ROOT);
      if (value.length() == 16 && value.endsWith("Z")) {
        return LocalDateTime.parse(value.substring(0, 15), format).toInstant(ZoneOffset.UTC);
      }
      if (value.length() == 15) {
        return LocalDateTime.parse(value, format).atZone(zone).withLaterOffsetAtOverlap().toInstant();
      }
    } catch (DateTimeException e) {
      // reported below with the expected forms
    }
    throw invalid(text, "UNTIL=" + value + " is not a date (20260131), a UTC time (20260131T090000Z) or a local time (20260131T090000)");
  }

  private static RoundhouseException.InvalidInput invalid(String text, String what) {
    return new RoundhouseException.InvalidInput("RRULE \"" + text + "\": " + what);
  }

  @Override
  public String toString() {
    return "RRULE from " + anchor + (counted == null ? "" : " (" + counted.size() + " firings)");
  }
}
