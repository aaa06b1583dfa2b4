package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.services.PortPlan;
import dev.roundhouse.services.Scheduler;
import java.time.Duration;
import java.util.Map;

/**
 * How the services module runs: the port plan, stop and hangup grace periods, log bounds, terminal reattach
 * and scrollback, and the environment services and terminals start from. Immutable.
 *
 * @param ports where projects' ports come from
 * @param stopGrace SIGTERM to SIGKILL for a service (and for leftovers reaped at boot)
 * @param logLines lines kept per service
 * @param logChars characters kept per service
 * @param maxLineBytes longer lines are cut
 * @param reattachGrace how long a detached terminal waits for its viewer
 * @param scrollbackBytes terminal output replayed on reattach
 * @param hangupGrace SIGHUP to SIGKILL for a terminal
 * @param logNoticeInterval at most one resource notice per service log per interval
 * @param baseEnv the environment services and terminals start from (the hub's own)
 * @param scheduler the timer for backoffs, readiness polls, terminal grace and notices
 */
public record ServicesSettings(
    PortPlan ports,
    Duration stopGrace,
    int logLines,
    long logChars,
    int maxLineBytes,
    Duration reattachGrace,
    int scrollbackBytes,
    Duration hangupGrace,
    Duration logNoticeInterval,
    Map<String, String> baseEnv,
    Scheduler scheduler) {

  public ServicesSettings {
    baseEnv = Map.copyOf(baseEnv);
  }

  /** The defaults over the hub's own environment. */
  public static ServicesSettings defaults() {
    return new ServicesSettings(PortPlan.defaults(), Duration.ofSeconds(5), 5_000, 2_000_000, 8_192,
        Duration.ofMinutes(5), 256 * 1024, Duration.ofSeconds(2), Duration.ofSeconds(1), System.getenv(),
        Scheduler.system());
  }

  /**
   * The defaults, changed by {@code ROUNDHOUSE_PORT_BASE}, {@code ROUNDHOUSE_SERVICE_LOG_LINES},
   * {@code ROUNDHOUSE_SERVICE_LOG_CHARS}, {@code ROUNDHOUSE_SERVICE_STOP_GRACE_MS} and
   * {@code ROUNDHOUSE_TERMINAL_REATTACH_MS} in {@code env} (see docs/configuration.md).
   *
   * @throws RoundhouseException.InvalidInput naming a variable whose value is not a number in range
   */
  public static ServicesSettings load(Map<String, String> env) {
    ServicesSettings defaults = defaults();
    int base = number(env, "ROUNDHOUSE_PORT_BASE", 21_000, 1024, 65_000);
    int blocks = Math.min(500, (65_536 - base) / 10);
    return new ServicesSettings(new PortPlan(base, blocks, 10),
        Duration.ofMillis(number(env, "ROUNDHOUSE_SERVICE_STOP_GRACE_MS", 5_000, 0, 600_000)),
        number(env, "ROUNDHOUSE_SERVICE_LOG_LINES", 5_000, 10, 1_000_000),
        number(env, "ROUNDHOUSE_SERVICE_LOG_CHARS", 2_000_000, 1_000, 1_000_000_000),
        defaults.maxLineBytes(),
        Duration.ofMillis(number(env, "ROUNDHOUSE_TERMINAL_REATTACH_MS", 300_000, 0, 86_400_000)),
        defaults.scrollbackBytes(), defaults.hangupGrace(), defaults.logNoticeInterval(), env, defaults.scheduler());
  }

  /** These settings with {@code value} as the stop grace. */
  public ServicesSettings withStopGrace(Duration value) {
    return new ServicesSettings(ports, value, logLines, logChars, maxLineBytes, reattachGrace, scrollbackBytes,
        hangupGrace, logNoticeInterval, baseEnv, scheduler);
  }

  /** These settings with {@code value} as the port plan. */
  public ServicesSettings withPorts(PortPlan value) {
    return new ServicesSettings(value, stopGrace, logLines, logChars, maxLineBytes, reattachGrace, scrollbackBytes,
        hangupGrace, logNoticeInterval, baseEnv, scheduler);
  }

  /** These settings with {@code value} as the environment services and terminals start from. */
  public ServicesSettings withBaseEnv(Map<String, String> value) {
    return new ServicesSettings(ports, stopGrace, logLines, logChars, maxLineBytes, reattachGrace, scrollbackBytes,
        hangupGrace, logNoticeInterval, value, scheduler);
  }

  private static int number(Map<String, String> env, String name, int fallback, int min, int max) {
    String text = env.get(name);
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(text.strip());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new RoundhouseException.InvalidInput(name + "=" + text + " is not a whole number from " + min + " to " + max);
  }
}
