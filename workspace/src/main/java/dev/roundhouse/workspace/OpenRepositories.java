package dev.roundhouse.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Repository;

/**
 * The repositories JGit has open, kept between questions, so a pack's index is read once rather than on every read:
 * on a repository of 100,000 commits, reading its pack index again was most of a diff's time. A caller gets the
 * shared instance with its use count raised and closes it as before (that only lowers the count); the pool holds
 * one count of its own. JGit notices what git writes meanwhile: refs and {@code packed-refs} by file snapshot, new
 * packs by rescanning on a miss, the configuration by its file's snapshot, a worktree's index on every status.
 *
 * <p>An instance whose git directory is gone (a worktree removed, a repository deleted) is dropped and the next
 * caller opens a fresh one; at most {@value #LIMIT} are kept, the least recently used going first. A dropped
 * instance is closed when its last caller closes it.
 *
 * <p>Thread-safe: a concurrent map, no lock; JGit's {@link Repository} serves concurrent readers.
 */
final class OpenRepositories {
  static final int LIMIT = 64;
  private static final Map<Path, Entry> OPEN = new ConcurrentHashMap<>();
  private static final AtomicLong CLOCK = new AtomicLong();

  /** One shared instance and when it was last handed out (a counter, not a time). */
  private record Entry(Repository repository, Path workTree, AtomicLong lastUsed) {
    boolean valid() {
      return Files.isDirectory(repository.getDirectory().toPath())
          && Files.exists(workTree.resolve(Constants.DOT_GIT));
    }
  }

  private OpenRepositories() {}

  /**
   * The shared repository of {@code workTree} (a main checkout's top level or a linked worktree), opened with
   * {@code opener} when there is none; the caller closes it.
   */
  static Repository open(Path workTree, Supplier<Repository> opener) {
    Path key = workTree.toAbsolutePath().normalize();
    while (true) {
      Entry entry = OPEN.get(key);
      if (entry == null) {
        Repository opened = opener.get();
        Entry fresh = new Entry(opened, key, new AtomicLong(CLOCK.incrementAndGet()));
        if (OPEN.putIfAbsent(key, fresh) != null) {
          opened.close();
          continue;
        }
        evictBeyondLimit();
        entry = fresh;
      }
      if (!entry.valid()) {
        drop(key, entry);
        continue;
      }
      entry.lastUsed().set(CLOCK.incrementAndGet());
      entry.repository().incrementOpen();
      return entry.repository();
    }
  }

  private static void evictBeyondLimit() {
    while (OPEN.size() > LIMIT) {
      OPEN.entrySet().stream().min(Comparator.comparingLong(e -> e.getValue().lastUsed().get()))
          .ifPresent(oldest -> drop(oldest.getKey(), oldest.getValue()));
    }
  }

  private static void drop(Path key, Entry entry) {
    if (OPEN.remove(key, entry)) {
      entry.repository().close();
    }
  }
}
