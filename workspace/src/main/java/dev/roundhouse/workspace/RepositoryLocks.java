package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per repository (keyed by its canonical common git directory), so worktree and ref writes on one
 * repository never race each other on git's own lock files. Held across git child processes (that is the
 * point), never across listeners or callbacks: callers return a result and report it after unlocking.
 *
 * <p>Thread-safe. Locks are never removed: one small object per repository the hub has touched.
 */
final class RepositoryLocks {
  private final ConcurrentMap<Path, ReentrantLock> locks = new ConcurrentHashMap<>();

  <T> T with(Repo repo, Supplier<T> work) {
    ReentrantLock lock = locks.computeIfAbsent(repo.commonDir(), key -> new ReentrantLock(true));
    lock.lock();
    try {
      return work.get();
    } finally {
      lock.unlock();
    }
  }

  /** For tests and diagnostics: whether the current thread holds any repository lock. */
  boolean heldByCurrentThread() {
    return locks.values().stream().anyMatch(ReentrantLock::isHeldByCurrentThread);
  }
}
