package dev.roundhouse.services;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;

/**
 * When a service that exited on its own is started again. The delay doubles with each consecutive restart,
 * from {@code initialBackoffMillis} up to {@code maxBackoffMillis}; a run that lasted
 * {@code stableAfterMillis} or longer resets the count, so a service that crashes once a day restarts at
 * once rather than after the longest delay. A stop on request is never followed by a restart.
 *
 * @param mode never, on failure (non-zero exit or readiness timeout) or always
 * @param initialBackoffMillis the first delay
 * @param maxBackoffMillis the longest delay
 * @param stableAfterMillis how long a run must last for the next failure to count as the first again
 */
public record RestartPolicy(Mode mode, long initialBackoffMillis, long maxBackoffMillis, long stableAfterMillis) {
  public RestartPolicy {
    if (mode == null) {
      mode = Mode.NEVER;
    }
    if (initialBackoffMillis <= 0) {
      initialBackoffMillis = 1_000;
    }
    if (maxBackoffMillis < initialBackoffMillis) {
      maxBackoffMillis = Math.max(initialBackoffMillis, 60_000);
    }
    if (stableAfterMillis <= 0) {
      stableAfterMillis = 30_000;
    }
  }

  /** The three policies of the issue. */
  public enum Mode {
    @JsonProperty("never")
    NEVER,
    @JsonProperty("on_failure")
    ON_FAILURE,
    @JsonProperty("always")
    ALWAYS
  }

  public static RestartPolicy never() {
    return new RestartPolicy(Mode.NEVER, 0, 0, 0);
  }

  public static RestartPolicy onFailure() {
    return new RestartPolicy(Mode.ON_FAILURE, 0, 0, 0);
  }

  public static RestartPolicy always() {
    return new RestartPolicy(Mode.ALWAYS, 0, 0, 0);
  }

  public RestartPolicy withBackoff(Duration initial, Duration max) {
    return new RestartPolicy(mode, initial.toMillis(), max.toMillis(), stableAfterMillis);
  }

  /** Whether a run that ended with {@code exitCode} (null: it never became ready) is restarted. */
  public boolean restarts(Integer exitCode) {
    return switch (mode) {
      case NEVER -> false;
      case ALWAYS -> true;
      case ON_FAILURE -> exitCode == null || exitCode != 0;
    };
  }

  /** The delay before restart number {@code consecutive} (1 for the first). */
  public Duration backoff(int consecutive) {
    long delay = initialBackoffMillis;
    for (int i = 1; i < consecutive && delay < maxBackoffMillis; i++) {
      delay *= 2;
    }
    return Duration.ofMillis(Math.min(delay, maxBackoffMillis));
  }
}
