package dev.roundhouse.calendaragent;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToIntFunction;
import net.fortuna.ical4j.model.Calendar;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What has been expanded of one calendar version, so queries on it get cheaper as they go:
 *
 * <ul>
 *   <li>the version is {@linkplain PreparedCalendar prepared} once, at its first query: single events are
 *       then found by binary search and only recurring series are expanded per query;
 *   <li>a query of up to {@value #MAX_MONTHS_PER_QUERY} months (in the calendar's zone) is answered from
 *       <em>month buckets</em>: each month's occurrences, expanded once and kept, then cut to the range. Any
 *       range inside months already expanded (another week, the same month again, a fortnight across two
 *       months) costs no expansion at all;
 *   <li>everything else (longer ranges, one event's occurrences, calendars with sub-daily rules, whose
 *       expansion is clamped per query, and a month of more than {@value #MONTH_CAP} occurrences) is expanded
 *       for its exact range and kept by range.
 * </ul>
 *
 * Both kinds of entries are evicted least recently used once they hold more than {@value #BUDGET}
 * occurrences each. A new version gets a new cache, so nothing kept is ever stale. The answer is the same as
 * {@link Expansion#expand} gives for the range (tested): a month bucket holds every occurrence overlapping its
 * month, and an occurrence spanning months is taken from the first of them the range covers.
 *
 * <p>Thread-safe: one {@link ReentrantLock} guards the maps and is held only to look up or store; preparing
 * and expanding run outside it (two threads may compute the same month once each; the first stored wins).
 */
final class ExpansionCache {
  static final int MAX_MONTHS_PER_QUERY = 4;
  static final int MONTH_CAP = 4 * Expansion.MAX_OCCURRENCES;
  static final int BUDGET = 60_000;

  private record Owner(String calendarId, ZoneId zone) {}

  private record RangeKey(Instant from, Instant to, int limit, String uid) {}

  /** One month's occurrences with their instants, for cutting ranges out of it by binary search. */
  private record Bucket(Instant start, Instant end, Expansion.Result result, Instant[] starts, Instant[] ends, Duration longest) {
    static Bucket of(Instant start, Instant end, Expansion.Result result) {
      List<Occurrence> occurrences = result.occurrences();
      Instant[] starts = new Instant[occurrences.size()];
      Instant[] ends = new Instant[occurrences.size()];
      Duration longest = Duration.ZERO;
      for (int i = 0; i < starts.length; i++) {
        starts[i] = Instant.parse(occurrences.get(i).start());
        ends[i] = Instant.parse(occurrences.get(i).end());
        Duration length = Duration.between(starts[i], ends[i]);
        longest = length.compareTo(longest) > 0 ? length : longest;
      }
      return new Bucket(start, end, result, starts, ends, longest);
    }

    int size() {
      return starts.length;
    }
  }

  private final Calendar calendar;
  private final ReentrantLock lock = Locks.tracked("expansion cache");

  @GuardedBy("lock")
  private final Weighted<YearMonth, Bucket> months = new Weighted<>(Bucket::size);

  @GuardedBy("lock")
  private final Weighted<RangeKey, Expansion.Result> ranges = new Weighted<>(result -> result.occurrences().size());

  private final AtomicLong expanded = new AtomicLong();

  @GuardedBy("lock")
  private Owner owner;

  @GuardedBy("lock")
  private PreparedCalendar prepared;

  ExpansionCache(Calendar calendar) {
    this.calendar = calendar;
  }

  Expansion.Result expand(String calendarId, ZoneId zone, Instant from, Instant to, int limit, String onlyUid) {
    Owner asker = new Owner(calendarId, zone);
    PreparedCalendar ready = prepared(asker);
    if (onlyUid == null && !ready.hasSubDailyRules()) {
      List<YearMonth> covered = months(from, to, zone);
      if (covered.size() <= MAX_MONTHS_PER_QUERY) {
        List<Bucket> buckets = new ArrayList<>();
        for (YearMonth month : covered) {
          Bucket bucket = month(ready, asker, month, zone);
          if (bucket.result().capped()) {
            buckets = null;
            break;
          }
          buckets.add(bucket);
        }
        if (buckets != null) {
          return cut(buckets, from, to, limit);
        }
      }
    }
    RangeKey key = new RangeKey(from, to, limit, onlyUid);
    lock.lock();
    try {
      Expansion.Result cached = cached(ranges, asker, key);
      if (cached != null) {
        return cached;
      }
    } finally {
      lock.unlock();
    }
    expanded.incrementAndGet();
    Expansion.Result fresh = ready.expand(from, to, limit, onlyUid);
    lock.lock();
    try {
      return stored(ranges, asker, key, fresh);
    } finally {
      lock.unlock();
    }
  }

  /** How many expansions (month buckets and ranges) this cache has computed: what a hit saves. */
  long expansions() {
    return expanded.get();
  }

  /** The months of {@code zone} that [from, to) touches, in order. */
  static List<YearMonth> months(Instant from, Instant to, ZoneId zone) {
    YearMonth first = YearMonth.from(from.atZone(zone));
    YearMonth last = YearMonth.from(to.minusNanos(1).atZone(zone));
    List<YearMonth> out = new ArrayList<>();
    for (YearMonth month = first; !month.isAfter(last) && out.size() <= MAX_MONTHS_PER_QUERY; month = month.plusMonths(1)) {
      out.add(month);
    }
    return out;
  }

  private Bucket month(PreparedCalendar ready, Owner asker, YearMonth month, ZoneId zone) {
    lock.lock();
    try {
      Bucket cached = cached(months, asker, month);
      if (cached != null) {
        return cached;
      }
    } finally {
      lock.unlock();
    }
    Instant start = month.atDay(1).atStartOfDay(zone).toInstant();
    Instant end = month.plusMonths(1).atDay(1).atStartOfDay(zone).toInstant();
    expanded.incrementAndGet();
    Bucket fresh = Bucket.of(start, end, ready.expand(start, end, MONTH_CAP, null));
    lock.lock();
    try {
      return stored(months, asker, month, fresh);
    } finally {
      lock.unlock();
    }
  }

  /** The occurrences of consecutive month buckets that overlap [from, to), each once, sorted, at most {@code limit}. */
  private static Expansion.Result cut(List<Bucket> buckets, Instant from, Instant to, int limit) {
    Bucket only = buckets.getFirst();
    if (buckets.size() == 1) {
      if (!from.isAfter(only.start()) && !to.isBefore(only.end()) && only.size() <= limit) {
        return only.result(); // the whole month
      }
      // those starting in [from, to) are one stretch of the month: a view of it, unless some start earlier and last into it
      int first = lowerBound(only.starts(), from);
      int end = lowerBound(only.starts(), to);
      boolean earlier = false;
      for (int j = lowerBound(only.starts(), from.minus(only.longest())); j < first && !earlier; j++) {
        earlier = PreparedCalendar.overlaps(only.starts()[j], only.ends()[j], from, to);
      }
      if (!earlier) {
        boolean capped = end - first > limit;
        return new Expansion.Result(only.result().occurrences().subList(first, capped ? first + limit : end), capped, only.result().warnings());
      }
    }
    List<Occurrence> out = new ArrayList<>();
    for (int i = 0; i < buckets.size() && out.size() <= limit; i++) {
      Bucket bucket = buckets.get(i);
      // one that started before this month also overlaps the one before, where it was taken already
      Instant earliest = from.minus(bucket.longest());
      if (i > 0 && earliest.isBefore(bucket.start())) {
        earliest = bucket.start();
      }
      for (int j = lowerBound(bucket.starts(), earliest); j < bucket.size() && bucket.starts()[j].isBefore(to) && out.size() <= limit; j++) {
        if (PreparedCalendar.overlaps(bucket.starts()[j], bucket.ends()[j], from, to)) {
          out.add(bucket.result().occurrences().get(j));
        }
      }
    }
    boolean capped = out.size() > limit;
    // every bucket of a version carries the same warnings (the events it could not read), and an expansion's own
    Set<String> warnings = new LinkedHashSet<>();
    buckets.forEach(bucket -> warnings.addAll(bucket.result().warnings()));
    return new Expansion.Result(capped ? List.copyOf(out.subList(0, limit)) : List.copyOf(out), capped, List.copyOf(warnings));
  }

  /** The index of the first of the sorted {@code starts} at or after {@code key}. */
  static int lowerBound(Instant[] starts, Instant key) {
    int low = 0;
    int high = starts.length;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (starts[middle].isBefore(key)) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  private PreparedCalendar prepared(Owner asker) {
    lock.lock();
    try {
      if (prepared != null && asker.equals(owner)) {
        return prepared;
      }
    } finally {
      lock.unlock();
    }
    PreparedCalendar fresh = PreparedCalendar.of(asker.calendarId(), calendar, asker.zone());
    lock.lock();
    try {
      if (prepared == null) {
        owner = asker;
        prepared = fresh;
      }
      return asker.equals(owner) ? prepared : fresh;
    } finally {
      lock.unlock();
    }
  }

  /** What {@code map} (one of this cache's, so the caller holds the lock) keeps for {@code key}, or null. */
  @GuardedBy("lock")
  private <K, V> V cached(Weighted<K, V> map, Owner asker, K key) {
    return asker.equals(owner) ? map.get(key) : null;
  }

  /** Keeps {@code result} in {@code map} (one of this cache's) unless another thread kept one first; the kept one. */
  @GuardedBy("lock")
  private <K, V> V stored(Weighted<K, V> map, Owner asker, K key, V result) {
    if (asker.equals(owner)) {
      V earlier = map.get(key);
      if (earlier != null) {
        return earlier;
      }
      map.put(key, result);
    }
    return result;
  }

  /**
   * An access-ordered map that evicts its eldest entries once they hold more than {@link #BUDGET} occurrences.
   * Not thread-safe: each is a {@code @GuardedBy("lock")} field of its cache.
   */
  private static final class Weighted<K, V> {
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final ToIntFunction<V> weight;
    private long occurrences;

    Weighted(ToIntFunction<V> weight) {
      this.weight = weight;
    }

    V get(K key) {
      return entries.get(key);
    }

    void put(K key, V value) {
      entries.put(key, value);
      occurrences += weight.applyAsInt(value) + 1;
      var eldest = entries.entrySet().iterator();
      while (occurrences > BUDGET && entries.size() > 1) {
        Map.Entry<K, V> gone = eldest.next();
        occurrences -= weight.applyAsInt(gone.getValue()) + 1;
        eldest.remove();
      }
    }
  }
}
