package dev.roundhouse.hub.retention;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The retention policy's setting. Immutable.
 *
 * @param days a finished task idle this many days has its events pruned by the daily run ({@code
 *     ROUNDHOUSE_RETENTION_DAYS}, 30); 0 turns automatic pruning off ({@code 0} or {@code off}), while {@code
 *     retention_prune} with explicit {@code days} still works
 */
public record RetentionSettings(int days) {

  public static final RetentionSettings DEFAULTS = new RetentionSettings(30);
  public static final RetentionSettings OFF = new RetentionSettings(0);

  /** How often the automatic run prunes. */
  public static final Duration EVERY = Duration.ofDays(1);

  public RetentionSettings {
    if (days < 0) {
      throw new RoundhouseException.InvalidInput("retention days must be 0 (off) or more, not " + days);
    }
  }

  /** Whether the hub prunes by itself, once a day. */
  public boolean automatic() {
    return days > 0;
  }

  public static RetentionSettings fromEnvironment(Map<String, String> env) {
    String raw = env.get("ROUNDHOUSE_RETENTION_DAYS");
    if (raw == null || raw.isBlank()) {
      return DEFAULTS;
    }
    String text = raw.strip().toLowerCase(Locale.ROOT);
    if (text.equals("off")) {
      return OFF;
    }
    try {
      int days = Integer.parseInt(text.endsWith("d") ? text.substring(0, text.length() - 1) : text);
      if (days < 0) {
        throw new NumberFormatException();
      }
      return new RetentionSettings(days);
    } catch (NumberFormatException e) {
      throw new RoundhouseException.InvalidInput(
          "ROUNDHOUSE_RETENTION_DAYS='" + raw + "' is not a number of days (such as 30) or 'off'");
    }
  }
}
