package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link WallRule} placed in a zone: where the DST rules of {@link Recurrence} live, the same for RRULE and
 * cron.
 *
 * <p>The mapping from a wall time to the instant it fires at: a time that exists once fires then; a time in a
 * spring-forward gap fires at the instant the gap ends (every skipped time collapses onto that one instant, so a
 * rule firing at 02:00, 02:30 and 03:00 fires once at 03:00); a time in an autumn overlap fires at the earlier
 * offset, and for a {@linkplain WallRule#firesEveryHour() rule that fires throughout the day} at the later offset
 * too. With earlier offsets only the mapping never goes backwards in time, which is what lets {@link #next} start
 * its wall-clock search at the wall time of {@code after}; the later copies of a repeated hour are looked up
 * separately, in the one overlap that can hold the answer.
 *
 * <p>Immutable and thread-safe.
 */
final class WallClockRecurrence implements Recurrence {
  private final String text;
  private final ZoneId zone;
  private final Form form;
  private final WallRule rule;
  /** UNTIL of an RRULE: the last instant that may fire, inclusive; null when the rule has none. */
  private final Instant until;

  private WallClockRecurrence(String text, ZoneId zone, Form form, WallRule rule, Instant until) {
    this.text = text;
    this.zone = zone;
    this.form = form;
    this.rule = rule;
    this.until = until;
  }

  static Recurrence parse(String text, ZoneId zone, LocalDateTime anchor) {
    Objects.requireNonNull(zone, "zone");
    if (text == null || text.isBlank()) {
      throw new RoundhouseException.InvalidInput("empty recurrence: give an RRULE (FREQ=...) or a five-field cron expression");
    }
    String trimmed = text.strip();
    if (isRrule(trimmed)) {
      RruleRule.Parsed parsed = RruleRule.parse(trimmed, zone, anchor.truncatedTo(java.time.temporal.ChronoUnit.MINUTES));
      return new WallClockRecurrence(trimmed, zone, Form.RRULE, parsed.rule(), parsed.until().orElse(null));
    }
    return new WallClockRecurrence(trimmed, zone, Form.CRON, CronRule.parse(trimmed), null);
  }

  /** An RRULE starts with {@code RRULE:} or has a {@code NAME=VALUE} part; cron never contains {@code =}. */
  static boolean isRrule(String text) {
    return text.toUpperCase(Locale.ROOT).startsWith("RRULE:") || text.indexOf('=') >= 0;
  }

  @Override
  public String text() {
    return text;
  }

  @Override
  public ZoneId zone() {
    return zone;
  }

  @Override
  public Form form() {
    return form;
  }

  @Override
  public Optional<Instant> next(Instant after) {
    ZoneRules rules = zone.getRules();
    LocalDateTime wall = LocalDateTime.ofInstant(after, zone);
    ZoneOffsetTransition transition = rules.getTransition(wall);
    boolean inRepeatedCopy = transition != null && transition.isOverlap()
        && rules.getOffset(after).equals(transition.getOffsetAfter());
    // In the second copy of a repeated hour every first copy is already past: resume at the hour's end.
    LocalDateTime from = inRepeatedCopy ? transition.getDateTimeBefore().minusNanos(1) : wall;
    Optional<Instant> first = rule.nextAfter(from).map(this::earliestInstant);
    Optional<Instant> found = first;
    if (rule.firesEveryHour() && (first.isPresent() || inRepeatedCopy)) {
      Optional<Instant> repeated = nextInRepeatedCopy(after, wall, inRepeatedCopy ? transition : null, first);
      if (repeated.isPresent() && (first.isEmpty() || repeated.get().isBefore(first.get()))) {
        found = repeated;
      }
    }
    return until == null ? found : found.filter(instant -> !instant.isAfter(until));
  }

  @Override
  public List<Instant> preview(Instant after, int count) {
    if (count < 0 || count > MAX_PREVIEW) {
      throw new RoundhouseException.InvalidInput("preview count " + count + " is outside 0-" + MAX_PREVIEW);
    }
    List<Instant> firings = new ArrayList<>(count);
    Instant cursor = after;
    while (firings.size() < count) {
      Optional<Instant> next = next(cursor);
      if (next.isEmpty()) {
        break;
      }
      firings.add(next.get());
      cursor = next.get();
    }
    return List.copyOf(firings);
  }

  /** Where a wall time fires when only its first occurrence counts: the gap's end, or the earlier offset. */
  private Instant earliestInstant(LocalDateTime wall) {
    ZoneRules rules = zone.getRules();
    if (rules.getValidOffsets(wall).isEmpty()) {
      return rules.getTransition(wall).getInstant();
    }
    return wall.atZone(zone).toInstant(); // atZone takes the earlier offset of an overlap
  }

  /**
   * The first firing after {@code after} in the second copy of a repeated hour, if one comes before {@code first}
   * (the next firing among first copies). Only the overlap in progress, or else the next one, can hold it: a
   * later overlap's second copies all come after their own first copies, which are no earlier than
   * {@code first}.
   */
  private Optional<Instant> nextInRepeatedCopy(Instant after, LocalDateTime wall, ZoneOffsetTransition current, Optional<Instant> first) {
    ZoneOffsetTransition overlap = current;
    LocalDateTime from = wall;
    if (overlap == null) {
      ZoneRules rules = zone.getRules();
      ZoneOffsetTransition next = rules.nextTransition(after);
      while (next != null && !next.isOverlap() && next.getInstant().isBefore(first.orElseThrow())) {
        next = rules.nextTransition(next.getInstant());
      }
      if (next == null || !next.isOverlap() || !next.getInstant().isBefore(first.orElseThrow())) {
        return Optional.empty();
      }
      overlap = next;
      from = overlap.getDateTimeAfter().minusNanos(1);
    }
    ZoneOffsetTransition repeated = overlap;
    return rule.nextAfter(from)
        .filter(time -> time.isBefore(repeated.getDateTimeBefore()))
        .map(time -> time.toInstant(repeated.getOffsetAfter()));
  }

  @Override
  public String toString() {
    return form + " " + text + " in " + zone;
  }
}
