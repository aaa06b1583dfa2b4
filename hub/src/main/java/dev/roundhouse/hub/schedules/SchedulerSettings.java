package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.turns.RunnerSettings;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * How the scheduler runs. Immutable.
 *
 * @param enabled false switches schedules' firing off ({@code ROUNDHOUSE_SCHEDULER=off}); deferred starts and
 *     dependents are not affected
 * @param tick the longest the scheduler waits between ticks ({@code ROUNDHOUSE_SCHEDULER_TICK}, 30s); it also
 *     wakes at the next firing and when a schedule changes
 * @param grace how late a firing may run and still count as on time ({@code ROUNDHOUSE_SCHEDULER_GRACE}, 10m);
 *     older ones were missed and follow the schedule's missed policy
 */
public record SchedulerSettings(boolean enabled, Duration tick, Duration grace) {
  public static final SchedulerSettings DEFAULTS = new SchedulerSettings(true, Duration.ofSeconds(30), Duration.ofMinutes(10));

  public SchedulerSettings {
    if (tick.isNegative() || tick.isZero()) {
      throw new RoundhouseException.InvalidInput("the scheduler's tick must be positive, not " + tick);
    }
    if (grace.isNegative()) {
      throw new RoundhouseException.InvalidInput("the scheduler's grace must not be negative, not " + grace);
    }
  }

  public static SchedulerSettings fromEnvironment(Map<String, String> env) {
    String switched = env.getOrDefault("ROUNDHOUSE_SCHEDULER", "on").strip().toLowerCase(Locale.ROOT);
    boolean enabled = switch (switched) {
      case "on", "true", "1", "" -> true;
      case "off", "false", "0" -> false;
      default -> throw new RoundhouseException.InvalidInput("ROUNDHOUSE_SCHEDULER='" + switched + "' is not on or off");
    };
    return new SchedulerSettings(enabled, RunnerSettings.duration(env, "ROUNDHOUSE_SCHEDULER_TICK", DEFAULTS.tick),
        RunnerSettings.duration(env, "ROUNDHOUSE_SCHEDULER_GRACE", DEFAULTS.grace));
  }

  public SchedulerSettings withEnabled(boolean on) {
    return new SchedulerSettings(on, tick, grace);
  }

  public SchedulerSettings withGrace(Duration newGrace) {
    return new SchedulerSettings(enabled, tick, newGrace);
  }
}
