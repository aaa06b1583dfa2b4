package dev.roundhouse.services;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How the supervisor knows a started service is ready: at once, when a TCP port accepts connections on
 * loopback, or when a line of its output matches a regular expression. A service that is not ready within
 * {@code timeoutMillis} is stopped and counts as a failure for its restart policy.
 *
 * @param check none, port or log
 * @param port the port to wait for; 0 means the project's {@code PORT}
 * @param pattern the regular expression (found anywhere in a line) for {@code log}
 * @param timeoutMillis how long to wait; 0 means 60 seconds
 */
public record Readiness(Check check, int port, String pattern, long timeoutMillis) {
  public Readiness {
    if (check == null) {
      check = Check.NONE;
    }
    if (timeoutMillis <= 0) {
      timeoutMillis = 60_000;
    }
    if (check == Check.PORT && (port < 0 || port > 65_535)) {
      throw new ServiceException("readiness port " + port + " is not a TCP port (0 means the project's PORT)");
    }
    if (check == Check.LOG) {
      if (pattern == null || pattern.isEmpty()) {
        throw new ServiceException("a log readiness check needs a pattern");
      }
      try {
        Pattern.compile(pattern);
      } catch (PatternSyntaxException e) {
        throw new ServiceException("readiness pattern " + pattern + " is not a regular expression: "
            + e.getDescription());
      }
    }
  }

  public enum Check {
    @JsonProperty("none")
    NONE,
    @JsonProperty("port")
    PORT,
    @JsonProperty("log")
    LOG
  }

  public static Readiness none() {
    return new Readiness(Check.NONE, 0, null, 0);
  }

  /** Ready when the project's {@code PORT} accepts connections. */
  public static Readiness projectPort() {
    return new Readiness(Check.PORT, 0, null, 0);
  }

  public static Readiness port(int port) {
    return new Readiness(Check.PORT, port, null, 0);
  }

  public static Readiness logLine(String regex) {
    return new Readiness(Check.LOG, 0, regex, 0);
  }

  public Readiness withTimeout(Duration timeout) {
    return new Readiness(check, port, pattern, timeout.toMillis());
  }

  @JsonIgnore
  public Duration timeout() {
    return Duration.ofMillis(timeoutMillis);
  }
}
