package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A five-field cron expression ({@code minute hour day-of-month month day-of-week}) as sets of allowed values,
 * searched field by field: a month that does not match skips to the next month, a day to the next day, and so
 * on, so {@link #nextAfter} takes a handful of steps for a common rule and at most a few thousand (one per day)
 * for one that fires on rare days.
 *
 * <p>Written here rather than taken from a library so that cron and RRULE share {@link WallClockRecurrence}'s
 * DST rules: this class knows nothing of zones. Syntax: {@code *}, numbers, {@code a-b} ranges, {@code /step}
 * after {@code *}, a range or a number ({@code 5/15} is {@code 5-59/15}), comma lists, the names JAN-DEC and
 * SUN-SAT (any case), 0 or 7 for Sunday, and the macros {@code @yearly}, {@code @annually}, {@code @monthly},
 * {@code @weekly}, {@code @daily}, {@code @midnight}, {@code @hourly}. When both day fields are restricted (anything
 * but a lone {@code *}) a day matches if either does, as in every cron; unlike Vixie cron, {@code *}/2 counts as
 * restricted.
 *
 * <p>Immutable and thread-safe.
 */
final class CronRule implements WallRule {
  private static final List<String> MONTHS = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
  private static final Map<String, String> MACROS = Map.of(
      "@yearly", "0 0 1 1 *",
      "@annually", "0 0 1 1 *",
      "@monthly", "0 0 1 * *",
      "@weekly", "0 0 * * 0",
      "@daily", "0 0 * * *",
      "@midnight", "0 0 * * *",
      "@hourly", "0 * * * *");
  private static final int ALL_HOURS = (1 << 24) - 1;

  /** Bit {@code n} set when value {@code n} is allowed; day of week counts Sunday as 0. */
  private final long minutes;
  private final long hours;
  private final long daysOfMonth;
  private final long months;
  private final long daysOfWeek;
  /** Both day fields restricted: a day matches when either matches. */
  private final boolean eitherDay;

  private CronRule(long minutes, long hours, long daysOfMonth, long months, long daysOfWeek, boolean eitherDay) {
    this.minutes = minutes;
    this.hours = hours;
    this.daysOfMonth = daysOfMonth;
    this.months = months;
    this.daysOfWeek = daysOfWeek;
    this.eitherDay = eitherDay;
  }

  static CronRule parse(String text) {
    String expression = text.startsWith("@") ? MACROS.get(text.toLowerCase(Locale.ROOT)) : text;
    if (expression == null) {
      throw invalid(text, text + " is not a cron macro; use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly");
    }
    String[] fields = expression.strip().split("\\s+");
    if (fields.length != 5) {
      throw invalid(text, "expected five fields (minute hour day-of-month month day-of-week) but found " + fields.length
          + "; an RRULE needs FREQ=");
    }
    long minutes = field(text, "minute", fields[0], 0, 59, List.of());
    long hours = field(text, "hour", fields[1], 0, 23, List.of());
    long daysOfMonth = field(text, "day-of-month", fields[2], 1, 31, List.of());
    long months = field(text, "month", fields[3], 1, 12, MONTHS);
    long daysOfWeek = field(text, "day-of-week", fields[4], 0, 7, DAYS);
    if ((daysOfWeek & (1L << 7)) != 0) {
      daysOfWeek = (daysOfWeek | 1L) & ~(1L << 7); // 7 is Sunday too
    }
    boolean domRestricted = !isStar(fields[2]);
    boolean dowRestricted = !isStar(fields[4]);
    if (domRestricted && !dowRestricted && !anyDayFits(daysOfMonth, months)) {
      throw invalid(text, "day-of-month " + fields[2] + " never falls in month " + fields[3] + ", so it never fires");
    }
    return new CronRule(minutes, hours, daysOfMonth, months, daysOfWeek, domRestricted && dowRestricted);
  }

  @Override
  public Optional<LocalDateTime> nextAfter(LocalDateTime after) {
    LocalDateTime time = after.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
    int lastYear = time.getYear() + HORIZON_YEARS;
    while (time.getYear() <= lastYear) {
      if (!has(months, time.getMonthValue())) {
        time = time.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
      } else if (!dayMatches(time.toLocalDate())) {
        time = time.toLocalDate().plusDays(1).atStartOfDay();
      } else if (!has(hours, time.getHour())) {
        int hour = nextSet(hours, time.getHour(), 23);
        time = hour < 0 ? time.toLocalDate().plusDays(1).atStartOfDay() : time.toLocalDate().atTime(hour, 0);
      } else if (!has(minutes, time.getMinute())) {
        int minute = nextSet(minutes, time.getMinute(), 59);
        time = minute < 0 ? time.truncatedTo(ChronoUnit.HOURS).plusHours(1) : time.withMinute(minute);
      } else {
        return Optional.of(time);
      }
    }
    return Optional.empty();
  }

  @Override
  public boolean firesEveryHour() {
    return hours == ALL_HOURS;
  }

  private boolean dayMatches(LocalDate date) {
    boolean dayOfMonth = has(daysOfMonth, date.getDayOfMonth());
    boolean dayOfWeek = has(daysOfWeek, date.getDayOfWeek().getValue() % 7);
    return eitherDay ? dayOfMonth || dayOfWeek : dayOfMonth && dayOfWeek;
  }

  private static boolean has(long set, int value) {
    return (set & (1L << value)) != 0;
  }

  /** The smallest value above {@code value} and at most {@code max} in the set, or -1. */
  private static int nextSet(long set, int value, int max) {
    long above = set & -(1L << (value + 1));
    int next = Long.numberOfTrailingZeros(above);
    return above == 0 || next > max ? -1 : next;
  }

  private static boolean isStar(String field) {
    return field.equals("*") || field.equals("?");
  }

  /** Whether some allowed day of the month exists in some allowed month (29 February counts: leap years). */
  private static boolean anyDayFits(long daysOfMonth, long months) {
    int[] lengths = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    for (int month = 1; month <= 12; month++) {
      if (has(months, month) && Long.numberOfTrailingZeros(daysOfMonth) <= lengths[month]) {
        return true;
      }
    }
    return false;
  }

  /** One field as a bit set: a comma list of {@code *}, values and ranges, each with an optional step. */
  private static long field(String text, String name, String field, int min, int max, List<String> names) {
    long set = 0;
    for (String item : field.split(",", -1)) {
      String where = name + " field \"" + field + "\"";
      if (item.isEmpty()) {
        throw invalid(text, where + " has an empty list entry");
      }
      String range = item;
      int step = 1;
      int slash = item.indexOf('/');
      if (slash >= 0) {
        range = item.substring(0, slash);
        step = number(text, where, item.substring(slash + 1), "step");
        if (step < 1) {
          throw invalid(text, where + ": step " + step + " must be at least 1");
        }
      }
      int low;
      int high;
      if (isStar(range)) {
        low = min;
        high = max;
      } else {
        int dash = range.indexOf('-');
        low = value(text, where, dash >= 0 ? range.substring(0, dash) : range, min, max, names);
        high = dash >= 0 ? value(text, where, range.substring(dash + 1), min, max, names) : (slash >= 0 ? max : low);
        if (high < low) {
          throw invalid(text, where + ": range " + range + " runs backwards; write it as two ranges");
        }
      }
      for (int value = low; value <= high; value += step) {
        set |= 1L << value;
      }
    }
    return set;
  }

  private static int value(String text, String where, String token, int min, int max, List<String> names) {
    int named = names.indexOf(token.toUpperCase(Locale.ROOT));
    int value = named >= 0 ? named + (min == 1 ? 1 : 0) : number(text, where, token, names.isEmpty() ? "number" : "number or name");
    if (value < min || value > max) {
      throw invalid(text, where + ": " + value + " is outside " + min + "-" + max);
    }
    return value;
  }

  private static int number(String text, String where, String token, String what) {
    if (token.isEmpty() || token.length() > 4 || !token.chars().allMatch(Character::isDigit)) {
      throw invalid(text, where + ": \"" + token + "\" is not a " + what);
    }
    return Integer.parseInt(token);
  }

  private static RoundhouseException.InvalidInput invalid(String text, String what) {
    return new RoundhouseException.InvalidInput("cron \"" + text + "\": " + what);
  }
}
