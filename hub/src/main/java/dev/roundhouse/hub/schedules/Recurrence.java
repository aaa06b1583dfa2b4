package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** TEMPORARY stand-in until the recurrence engine lands: FREQ=MINUTELY|HOURLY|DAILY with INTERVAL, from the anchor. */
public final class Recurrence {
  private final Instant anchor;
  private final Duration step;

  private Recurrence(Instant anchor, Duration step) {
    this.anchor = anchor;
    this.step = step;
  }

  public static Recurrence parse(String text, ZoneId zone, Instant anchor) {
    String rule = text.strip().replaceFirst("^RRULE:", "");
    long interval = 1;
    Duration unit = null;
    for (String part : rule.split(";")) {
      String[] kv = part.split("=", 2);
      if (kv.length == 2 && kv[0].equals("FREQ")) {
        unit = switch (kv[1]) {
          case "MINUTELY" -> Duration.ofMinutes(1);
          case "HOURLY" -> Duration.ofHours(1);
          case "DAILY" -> Duration.ofDays(1);
          default -> null;
        };
      } else if (kv.length == 2 && kv[0].equals("INTERVAL")) {
        interval = Long.parseLong(kv[1]);
      }
    }
    if (unit == null) {
      throw new RoundhouseException.InvalidInput("unsupported recurrence '" + text + "'");
    }
    return new Recurrence(anchor, unit.multipliedBy(interval));
  }

  public Optional<Instant> next(Instant after) {
    long steps = Math.floorDiv(after.toEpochMilli() - anchor.toEpochMilli(), step.toMillis()) + 1;
    return Optional.of(anchor.plusMillis(Math.max(steps, 0) * step.toMillis()));
  }

  public List<Instant> preview(Instant after, int count) {
    List<Instant> out = new ArrayList<>();
    Instant t = after;
    for (int i = 0; i < count; i++) {
      t = next(t).orElseThrow();
      out.add(t);
    }
    return out;
  }
}
