package dev.roundhouse.calendaragent;

import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import net.fortuna.ical4j.model.Calendar;

/**
 * One version of a calendar: its text, the parsed form, where each UID lives on a CalDAV server (href and
 * ETag), and the expansions already computed for it. A new version (the file or the collection changed) is a
 * new snapshot, so cached expansions can never be stale.
 *
 * <p>Thread-safe: everything but the expansion cache is immutable; the cache is a small LRU map guarded by a
 * {@link ReentrantLock} that is held only to look up or store (expansion itself runs outside it, so two
 * threads may expand the same range once each).
 */
final class Snapshot {
  static final int CACHED_EXPANSIONS = 64;

  private final String version;
  private final String text;
  private final Calendar calendar;
  private final Map<String, Located> located;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<Key, Expansion.Result> expansions = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Expansion.Result> eldest) {
      return size() > CACHED_EXPANSIONS;
    }
  };

  /** Where a UID lives on a CalDAV server. */
  record Located(String href, String etag) {}

  private record Key(Instant from, Instant to, int limit, String uid) {}

  Snapshot(String version, String text, Calendar calendar, Map<String, Located> located) {
    this.version = version;
    this.text = text;
    this.calendar = calendar;
    this.located = Map.copyOf(located);
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

  /** {@link Expansion#expand} of this version, cached per range, limit and UID. */
  Expansion.Result expand(String calendarId, ZoneId zone, Instant from, Instant to, int limit, String onlyUid) {
    Key key = new Key(from, to, limit, onlyUid);
    lock.lock();
    try {
      Expansion.Result cached = expansions.get(key);
      if (cached != null) {
        return cached;
      }
    } finally {
      lock.unlock();
    }
    Expansion.Result result = Expansion.expand(calendarId, calendar, zone, from, to, limit, onlyUid);
    lock.lock();
    try {
      expansions.put(key, result);
    } finally {
      lock.unlock();
    }
    return result;
  }

  @Override
  public String toString() {
    return "Snapshot[" + version + ", " + Objects.hashCode(text) + "]";
  }
}
