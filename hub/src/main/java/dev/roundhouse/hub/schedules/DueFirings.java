package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.model.Schedule;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which firings of a due schedule a tick acts on: those that came due more than the grace ago were missed
 * (counted, and acted on once, keyed by the first of them), the rest are on time (each one keyed by its own
 * time). Pure; immutable.
 *
 * @param missedKey the first missed firing, or null when none was missed
 * @param missedCount how many were missed (counting stops at {@link #COUNT_CAP})
 * @param lastMissed the last missed firing counted
 * @param onTime the on-time firings, in order (at most {@link #ON_TIME_CAP})
 * @param next the first firing after {@code now}, or null when the recurrence has ended
 */
record DueFirings(Instant missedKey, int missedCount, Instant lastMissed, List<Instant> onTime, Instant next) {
  static final int COUNT_CAP = 100_000;
  static final int ON_TIME_CAP = 1_000;
  private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm xxx");

  static DueFirings of(Schedule schedule, Recurrence recurrence, Instant now, Instant graceEdge) {
    Instant first = schedule.nextAt();
    Instant missedKey = null;
    Instant lastMissed = null;
    int missed = 0;
    Instant cursor = first;
    if (first.isBefore(graceEdge)) {
      missedKey = first;
      lastMissed = first;
      missed = 1;
      while (missed < COUNT_CAP) {
        Optional<Instant> next = recurrence.next(cursor);
        if (next.isEmpty() || !next.get().isBefore(graceEdge)) {
          break;
        }
        cursor = next.get();
        lastMissed = cursor;
        missed++;
      }
    }
    List<Instant> onTime = new ArrayList<>();
    Optional<Instant> at;
    if (missedKey == null) {
      at = Optional.of(first);
    } else {
      // Past the counted missed ones; when counting stopped early, skip straight to the grace edge.
      Instant after = cursor.isBefore(graceEdge.minusMillis(1)) && missed >= COUNT_CAP ? graceEdge.minusMillis(1) : cursor;
      at = recurrence.next(after);
    }
    while (at.isPresent() && !at.get().isAfter(now) && onTime.size() < ON_TIME_CAP) {
      onTime.add(at.get());
      at = recurrence.next(at.get());
    }
    return new DueFirings(missedKey, missed, lastMissed, List.copyOf(onTime), at.orElse(null));
  }

  /** The sentence a missed run's reason opens with. */
  String missedText(ZoneId zone) {
    return missedCount == 1
        ? "missed the firing due " + local(missedKey, zone) + " (the hub was down or its clock jumped)"
        : "missed " + missedCount + (missedCount >= COUNT_CAP ? "+" : "") + " firings due from " + local(missedKey, zone)
            + " to " + local(lastMissed, zone) + " (the hub was down or its clock jumped)";
  }

  static String local(Instant at, ZoneId zone) {
    return LOCAL.format(at.atZone(zone));
  }
}
