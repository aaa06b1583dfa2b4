package dev.roundhouse.hub.core;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as a person writes them on a command line: {@code 90s}, {@code 30m}, {@code 2h}, {@code 1h30m}
 * (a number and a unit, {@code ms}, {@code s}, {@code m} or {@code h}, repeated), or ISO-8601 ({@code PT20M}):
 * the one parser for the CLI's duration options and the hub's duration settings. Stateless.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");
  private static final Pattern WHOLE = Pattern.compile("(\\d+(ms|s|m|h))+");

  private Durations() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static Duration parse(String text) {
    String value = text.strip().toLowerCase(java.util.Locale.ROOT);
    if (value.startsWith("pt") || value.startsWith("p")) {
      try {
        return Duration.parse(value.toUpperCase(java.util.Locale.ROOT));
      } catch (java.time.format.DateTimeParseException e) {
        throw invalid(text);
      }
    }
    if (!WHOLE.matcher(value).matches()) {
      throw invalid(text);
    }
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(value);
    while (part.find()) {
      long amount = Long.parseLong(part.group(1));
      total = total.plus(switch (part.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofHours(amount);
      });
    }
    return total;
  }

  /** A short form for messages: {@code 90s}, {@code 30m}, {@code 1h30m}, {@code 250ms}. */
  public static String format(Duration duration) {
    if (duration.toMillis() % 1000 != 0) {
      return duration.toMillis() + "ms";
    }
    long seconds = duration.toSeconds();
    StringBuilder text = new StringBuilder();
    if (seconds >= 3600) {
      text.append(seconds / 3600).append('h');
      seconds %= 3600;
    }
    if (seconds >= 60) {
      text.append(seconds / 60).append('m');
      seconds %= 60;
    }
    if (seconds > 0 || text.isEmpty()) {
      text.append(seconds).append('s');
    }
    return text.toString();
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException("'" + text + "' is not a duration; write it like 90s, 30m, 2h or 1h30m");
  }
}
