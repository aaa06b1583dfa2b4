package dev.roundhouse.hub.schedules;

import java.time.LocalDateTime;
import java.util.Optional;

/**
 * A recurrence on a wall clock without a zone: the wall times it fires at. {@link WallClockRecurrence} turns
 * them into instants, so both syntaxes share one set of DST rules. Implementations are immutable.
 */
interface WallRule {
  /** How far {@link #nextAfter} looks before it says the rule does not fire. */
  int HORIZON_YEARS = 10;

  /**
   * The first wall time strictly after {@code after} the rule fires at (a whole minute), or empty when there is
   * none within {@link #HORIZON_YEARS} of {@code after} (or the rule has run out of its COUNT).
   */
  Optional<LocalDateTime> nextAfter(LocalDateTime after);

  /**
   * Whether the rule fires throughout the day, and so fires in both copies of an hour the clock repeats rather
   * than only in the first.
   */
  boolean firesEveryHour();
}
