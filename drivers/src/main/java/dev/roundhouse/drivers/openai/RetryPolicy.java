package dev.roundhouse.drivers.openai;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How often and how long to wait when an endpoint answers 429 or 5xx: exponential backoff from
 * {@code baseDelay} with jitter, or the server's {@code Retry-After}, never more than {@code maxDelay} per
 * wait and never more than {@code maxAttempts} requests in all.
 *
 * <p>Immutable and thread-safe.
 */
record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
  /** Five attempts, starting near one second, at most a minute per wait. */
  static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofSeconds(60));

  /** One attempt: for the connection test, which should answer quickly. */
  static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

  RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
    }
  }

  /** True for the statuses worth another try: 429 and every 5xx. Never 400, 401, 403, 404. */
  static boolean isRetryable(int status) {
    return status == 429 || status >= 500 && status <= 599;
  }

  /**
   * The wait before retry number {@code retry} (1 for the first retry) when the server gave no
   * {@code Retry-After}: {@code baseDelay * 2^(retry-1)}, scaled by a random factor between 0.5 and 1, capped.
   */
  Duration backoff(int retry, RandomGenerator random) {
    long base = baseDelay.toMillis() << Math.min(retry - 1, 20);
    double factor = 0.5 + 0.5 * random.nextDouble();
    return cap(Duration.ofMillis(Math.round(base * factor)));
  }

  /** {@code wait} capped at {@code maxDelay} and at least zero. */
  Duration cap(Duration wait) {
    if (wait.isNegative()) {
      return Duration.ZERO;
    }
    return wait.compareTo(maxDelay) > 0 ? maxDelay : wait;
  }
}
