package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Durations;
import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Duration;
import java.util.Map;

/**
 * The runner's timings. Immutable.
 *
 * @param idleTimeout a turn that produces nothing this long, while not parked on a human, is marked idle
 *     ({@code ROUNDHOUSE_IDLE_TIMEOUT}, 20m)
 * @param lingerTimeout how long a lingering session waits for the next message ({@code
 *     ROUNDHOUSE_LINGER_TIMEOUT}, 10m)
 * @param decisionTimeout how long a permission or question waits for a human before it expires (denied)
 *     ({@code ROUNDHOUSE_DECISION_TIMEOUT}, 30m)
 * @param stopGrace how long {@code turn_stop} waits for the driver to wind down before it finalises the
 *     turn anyway (10s)
 * @param turnLease how long a worker's hold on its running turns lasts without renewal ({@code
 *     ROUNDHOUSE_TURN_LEASE}, 30s; renewed every sixth of it): when a worker dies, another ends its turns as
 *     interrupted this long after its last renewal, and runs their tasks' queued messages
 */
public record RunnerSettings(
    Duration idleTimeout, Duration lingerTimeout, Duration decisionTimeout, Duration stopGrace, Duration turnLease) {

  public static final RunnerSettings DEFAULTS = new RunnerSettings(
      Duration.ofMinutes(20), Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofSeconds(10), Duration.ofSeconds(30));

  public RunnerSettings {
    if (turnLease.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new RoundhouseException.InvalidInput("ROUNDHOUSE_TURN_LEASE must be at least 1s; it is " + turnLease.toMillis() + " ms");
    }
  }

  public static RunnerSettings fromEnvironment(Map<String, String> env) {
    return new RunnerSettings(
        duration(env, "ROUNDHOUSE_IDLE_TIMEOUT", DEFAULTS.idleTimeout),
        duration(env, "ROUNDHOUSE_LINGER_TIMEOUT", DEFAULTS.lingerTimeout),
        duration(env, "ROUNDHOUSE_DECISION_TIMEOUT", DEFAULTS.decisionTimeout),
        DEFAULTS.stopGrace,
        duration(env, "ROUNDHOUSE_TURN_LEASE", DEFAULTS.turnLease));
  }

  public RunnerSettings withIdleTimeout(Duration timeout) {
    return new RunnerSettings(timeout, lingerTimeout, decisionTimeout, stopGrace, turnLease);
  }

  public RunnerSettings withLingerTimeout(Duration timeout) {
    return new RunnerSettings(idleTimeout, timeout, decisionTimeout, stopGrace, turnLease);
  }

  public RunnerSettings withDecisionTimeout(Duration timeout) {
    return new RunnerSettings(idleTimeout, lingerTimeout, timeout, stopGrace, turnLease);
  }

  public RunnerSettings withTurnLease(Duration lease) {
    return new RunnerSettings(idleTimeout, lingerTimeout, decisionTimeout, stopGrace, lease);
  }

  /** Reads setting {@code name}: a number of seconds, or a duration as {@link Durations#parse} reads it ("90s", "20m", "1h30m"). */
  public static Duration duration(Map<String, String> env, String name, Duration fallback) {
    String raw = env.get(name);
    if (raw == null || raw.isBlank()) {
      return fallback;
    }
    String text = raw.strip();
    try {
      return text.chars().allMatch(Character::isDigit) ? Duration.ofSeconds(Long.parseLong(text)) : Durations.parse(text);
    } catch (IllegalArgumentException e) { // NumberFormatException included
      throw new RoundhouseException.InvalidInput(name + "='" + raw + "' is not a duration such as 90s, 20m or 2h");
    }
  }

}
