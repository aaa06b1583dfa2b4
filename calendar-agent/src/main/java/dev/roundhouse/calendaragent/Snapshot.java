package dev.roundhouse.calendaragent;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import net.fortuna.ical4j.model.Calendar;

/**
 * One version of a calendar: its text, the parsed form, where each UID lives on a CalDAV server (href and
 * ETag), and what has been expanded of it ({@link ExpansionCache}). A new version (the file or the collection
 * changed) is a new snapshot, so cached expansions can never be stale.
 *
 * <p>Thread-safe: everything but the expansion cache is immutable, and the cache is thread-safe.
 */
final class Snapshot {
  private final String version;
  private final String text;
  private final Calendar calendar;
  private final Map<String, Located> located;
  private final ExpansionCache expansions;

  /** Where a UID lives on a CalDAV server. */
  record Located(String href, String etag) {}

  Snapshot(String version, String text, Calendar calendar, Map<String, Located> located) {
    this.version = version;
    this.text = text;
    this.calendar = calendar;
    this.located = Map.copyOf(located);
    this.expansions = new ExpansionCache(calendar);
  }

  static Snapshot empty() {
    return new Snapshot("empty", "", new Calendar(), Map.of());
  }

  String version() {
    return version;
  }

  String text() {
    return text;
  }

  /** The parsed calendar; callers must not mutate it. */
  Calendar calendar() {
    return calendar;
  }

  Located located(String uid) {
    return located.get(uid);
  }

  /** {@link Expansion#expand} of this version, through its {@link ExpansionCache}. */
  Expansion.Result expand(String calendarId, ZoneId zone, Instant from, Instant to, int limit, String onlyUid) {
    return expansions.expand(calendarId, zone, from, to, limit, onlyUid);
  }

  @Override
  public String toString() {
    return "Snapshot[" + version + ", " + Objects.hashCode(text) + "]";
  }
}
