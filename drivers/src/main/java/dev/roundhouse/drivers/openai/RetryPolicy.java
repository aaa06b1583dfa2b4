package dev.roundhouse.drivers.openai;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

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

  private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");

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

  /**
   * The wait the server asked for: {@code retry-after-ms} (OpenAI), else {@code Retry-After} in seconds or as
   * an HTTP date (read against {@code clock}); empty when it gave none it could be understood by. Not capped.
   */
  static Optional<Duration> retryAfter(HttpHeaders headers, Clock clock) {
    Optional<String> millis = headers.firstValue("retry-after-ms").map(String::strip);
    if (millis.isPresent() && NUMBER.matcher(millis.get()).matches()) {
      return Optional.of(Duration.ofMillis(Math.round(Double.parseDouble(millis.get()))));
    }
    Optional<String> value = headers.firstValue("retry-after").map(String::strip);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    if (NUMBER.matcher(value.get()).matches()) {
      return Optional.of(Duration.ofMillis(Math.round(Double.parseDouble(value.get()) * 1000)));
    }
    try {
      ZonedDateTime when = ZonedDateTime.parse(value.get(), DateTimeFormatter.RFC_1123_DATE_TIME);
      return Optional.of(Duration.between(clock.instant(), when.toInstant()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
