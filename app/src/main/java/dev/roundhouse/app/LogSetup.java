package dev.roundhouse.app;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How this process logs, chosen from {@code ROUNDHOUSE_LOG_FORMAT} and {@code ROUNDHOUSE_LOG_LEVEL} before the
 * first logger exists (docs/configuration.md): {@code text} through SLF4J Simple ({@code simplelogger.properties}),
 * or {@code json} through Logback and its JSON encoder ({@link JsonLogs}), one object per line; both to stderr.
 * Naming the provider also keeps SLF4J from choosing between the two on the class path, and keeps Logback's
 * classes unloaded when logs are text. Not thread-safe: {@link Main} calls it first.
 */
final class LogSetup {
  static final String FORMAT = "ROUNDHOUSE_LOG_FORMAT";
  static final String LEVEL = "ROUNDHOUSE_LOG_LEVEL";
  /** The level {@link JsonLogs} reads, as SLF4J Simple reads its own property. */
  static final String LEVEL_PROPERTY = "roundhouse.log.level";

  private static final Set<String> LEVELS = Set.of("error", "warn", "info", "debug", "trace");

  private LogSetup() {}

  /**
   * Sets the system properties that choose the provider and the level, unless already set.
   *
   * @throws IllegalArgumentException naming the variable whose value is not one it takes
   */
  static void apply(Map<String, String> env) {
    String format = value(env, FORMAT, "text");
    String level = value(env, LEVEL, "info");
    if (!format.equals("text") && !format.equals("json")) {
      throw new IllegalArgumentException(FORMAT + " must be text or json, not '" + env.get(FORMAT) + "'");
    }
    if (!LEVELS.contains(level)) {
      throw new IllegalArgumentException(
          LEVEL + " must be error, warn, info, debug or trace, not '" + env.get(LEVEL) + "'");
    }
    setIfAbsent("slf4j.internal.verbosity", "WARN"); // else SLF4J reports the named provider on stderr at every start
    setIfAbsent("slf4j.provider", format.equals("json")
        ? "ch.qos.logback.classic.spi.LogbackServiceProvider" : "org.slf4j.simple.SimpleServiceProvider");
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", level);
    setIfAbsent(LEVEL_PROPERTY, level);
  }

  private static String value(Map<String, String> env, String name, String fallback) {
    String text = env.get(name);
    return text == null || text.isBlank() ? fallback : text.strip().toLowerCase(Locale.ROOT);
  }

  private static void setIfAbsent(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }
}
