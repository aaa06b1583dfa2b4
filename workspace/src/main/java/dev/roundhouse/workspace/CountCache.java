package dev.roundhouse.workspace;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The line counts of file pairs already counted, so a task's diff read again (an editor refreshes it on every
 * change) counts only the files whose contents changed since. A count is a function of what its {@link Key}
 * holds: both blob ids (contents), both paths and the {@code diff} attribute the scan found for them (a path can be
 * marked binary) and the diff algorithm; a file edited again has a new id and is counted anew. Hunks are not kept:
 * only counts.
 *
 * <p>Bounded: the least recently used pairs go first, beyond {@code capacity} (a few hundred bytes each).
 *
 * <p>Thread-safe: every access holds this object's monitor, briefly; nothing is counted under it.
 */
final class CountCache {
  /** What a file's counts depend on. */
  record Key(DiffEntry.ChangeType type, ObjectId oldId, ObjectId newId, String oldPath, String newPath,
      String attribute, String algorithm) {}

  /** A file's counts, as {@link FileCounter} found them. */
  record Counts(boolean binary, int added, int removed) {}

  private final int capacity;

  @GuardedBy("this")
  private final LinkedHashMap<Key, Counts> counts;

  CountCache(int capacity) {
    this.capacity = capacity;
    this.counts = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, Counts> eldest) {
        return size() > CountCache.this.capacity;
      }
    };
  }

  /** The key of {@code entry}, or null when one of its ids is abbreviated (nothing then names its contents). */
  static Key keyOf(DiffEntry entry, String algorithm) {
    if (!entry.getOldId().isComplete() || !entry.getNewId().isComplete()) {
      return null;
    }
    return new Key(entry.getChangeType(), entry.getOldId().toObjectId(), entry.getNewId().toObjectId(),
        entry.getOldPath(), entry.getNewPath(), String.valueOf(entry.getDiffAttribute()), algorithm);
  }

  synchronized Counts get(Key key) {
    return counts.get(key);
  }

  synchronized void put(Key key, Counts value) {
    counts.put(key, value);
  }
}
