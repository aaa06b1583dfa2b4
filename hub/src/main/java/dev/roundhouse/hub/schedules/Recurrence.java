package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * When a schedule fires: an RFC 5545 RRULE or a five-field cron expression, read on the wall clock of an IANA
 * zone. docs/schedules.md ("Recurrences") is the user's account of both forms and of the DST rules; in short:
 *
 * <ul>
 *   <li>A text that starts with {@code RRULE:} or contains {@code =} is an RRULE (every RRULE has
 *       {@code FREQ=}, no cron expression has {@code =}); anything else is cron.
 *   <li>A wall time the clock skips (02:30 on a spring-forward day) fires once, at the end of the gap (03:00).
 *   <li>A wall time the clock shows twice (autumn) fires once, at the earlier offset; except that a rule that
 *       fires throughout the day (cron hour field {@code *}; RRULE {@code FREQ=HOURLY} or {@code MINUTELY}
 *       without {@code BYHOUR}) fires in both copies of the repeated hour, so it keeps firing every real hour.
 *   <li>Firings fall on whole minutes.
 * </ul>
 *
 * <p>Immutable and thread-safe; {@link #next} does a bounded search and never blocks.
 */
public interface Recurrence {
  /**
   * The anchor {@link #parse(String, ZoneId)} uses: midnight starting 1 January 2000 on the zone's wall clock.
   * It gives an RRULE its phase (which weeks of an {@code INTERVAL=2} rule fire) and the time of day of a
   * rule without {@code BYHOUR}/{@code BYMINUTE} (midnight).
   */
  LocalDateTime DEFAULT_ANCHOR = LocalDateTime.of(2000, 1, 1, 0, 0);

  /** The most firings {@link #preview} lists. */
  int MAX_PREVIEW = 1000;

  /** Which of the two syntaxes a recurrence was written in. */
  enum Form {
    RRULE,
    CRON
  }

  /**
   * Reads a recurrence in {@code zone}.
   *
   * @param text an RRULE (with or without {@code RRULE:}) or a five-field cron expression
   * @param anchor the RRULE's DTSTART (a schedule passes its creation time), read on the zone's wall clock and
   *     truncated to the minute; cron ignores it
   * @throws RoundhouseException.InvalidInput naming what is wrong and where, for a malformed text or a rule
   *     that can never fire
   */
  static Recurrence parse(String text, ZoneId zone, Instant anchor) {
    return WallClockRecurrence.parse(text, zone, LocalDateTime.ofInstant(anchor, zone));
  }

  /** {@link #parse(String, ZoneId, Instant)} with the {@link #DEFAULT_ANCHOR}. */
  static Recurrence parse(String text, ZoneId zone) {
    return WallClockRecurrence.parse(text, zone, DEFAULT_ANCHOR);
  }

  /** The text as given, trimmed. */
  String text();

  ZoneId zone();

  Form form();

  /**
   * The first firing strictly after {@code after}; empty when the rule has ended (COUNT, UNTIL) or does not
   * fire within ten years of {@code after}.
   */
  Optional<Instant> next(Instant after);

  /**
   * The next {@code count} firings strictly after {@code after}, in order; fewer when the rule ends first.
   *
   * @throws RoundhouseException.InvalidInput when {@code count} is negative or above {@link #MAX_PREVIEW}
   */
  List<Instant> preview(Instant after, int count);
}
