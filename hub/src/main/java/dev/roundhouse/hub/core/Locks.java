package dev.roundhouse.hub.core;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.Condition;

/**
 * Locks that know they are held, so a call-out can check that none is: the rule "never call out (to a driver,
 * an extension, an event sink) while holding a lock" of {@code docs/concurrency.md}, checked at run time.
 *
 * <p>{@link #tracked} makes a {@link ReentrantLock} that records, for the thread that holds it, that it is
 * held; {@link #assertNoneHeld} throws when the current thread holds any such lock. Every lock of the hub and
 * its modules is made here, and the hub calls {@code assertNoneHeld} right before it calls code that is not
 * its own. The record is per thread (a thread-local stack of the locks the thread holds, one entry per
 * acquisition), so it works the same on virtual threads; it costs a thread-local read and an array store per
 * acquisition. A {@link Condition#await} leaves its lock on the stack: the thread is
 * parked meanwhile and calls nothing.
 *
 * <p>Thread-safe: each thread sees and changes only its own record.
 */
public final class Locks {
  private static final ThreadLocal<Held> HELD = new ThreadLocal<>();

  private Locks() {}

  /**
   * A new, non-fair {@link ReentrantLock} that {@link #assertNoneHeld} sees while it is held.
   *
   * @param name what the lock guards, for the message of a failed assertion ("calendar audit")
   */
  public static ReentrantLock tracked(String name) {
    return new TrackedLock(name);
  }

  /**
   * Throws when the current thread holds a {@linkplain #tracked tracked} lock. The hub calls this right before
   * calling out, naming the call-out.
   *
   * @param callOut what is about to be called, as the message should name it ("the event sink")
   * @throws IllegalStateException naming {@code callOut} and the locks held
   */
  public static void assertNoneHeld(String callOut) {
    Held held = HELD.get();
    if (held != null && held.size > 0) {
      throw new IllegalStateException("calling " + callOut + " while holding " + held.describe() + "; no lock may be held when calling out");
    }
  }

  /** How many tracked locks the current thread holds, counting a reentrant hold as often as it was taken. */
  public static int heldCount() {
    Held held = HELD.get();
    return held == null ? 0 : held.size;
  }

  private static void acquired(TrackedLock lock) {
    Held held = HELD.get();
    if (held == null) {
      held = new Held();
      HELD.set(held);
    }
    held.push(lock);
  }

  private static void released(TrackedLock lock) {
    HELD.get().remove(lock);
  }

  /** The tracked locks one thread holds, in the order it took them. Touched only by its thread. */
  private static final class Held {
    private TrackedLock[] locks = new TrackedLock[4];
    private int size;

    void push(TrackedLock lock) {
      if (size == locks.length) {
        locks = Arrays.copyOf(locks, size * 2);
      }
      locks[size++] = lock;
    }

    /** Removes the latest acquisition of {@code lock}; locks need not be released in the order taken. */
    void remove(TrackedLock lock) {
      for (int i = size - 1; i >= 0; i--) {
        if (locks[i] == lock) {
          System.arraycopy(locks, i + 1, locks, i, size - i - 1);
          locks[--size] = null;
          return;
        }
      }
    }

    String describe() {
      StringBuilder names = new StringBuilder();
      for (int i = 0; i < size; i++) {
        names.append(i == 0 ? "" : ", ").append("the ").append(locks[i].name).append(" lock");
      }
      return names.toString();
    }
  }

  /**
   * A {@link ReentrantLock} that records its acquisitions in {@link #HELD}: after the lock is taken, and
   * before it is released (so a failed {@code unlock}, by a thread that does not hold it, changes nothing).
   */
  private static final class TrackedLock extends ReentrantLock {
    private static final long serialVersionUID = 1L;

    private final String name;

    TrackedLock(String name) {
      this.name = name;
    }

    @Override
    public void lock() {
      super.lock();
      acquired(this);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
      super.lockInterruptibly();
      acquired(this);
    }

    @Override
    public boolean tryLock() {
      boolean taken = super.tryLock();
      if (taken) {
        acquired(this);
      }
      return taken;
    }

    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
      boolean taken = super.tryLock(timeout, unit);
      if (taken) {
        acquired(this);
      }
      return taken;
    }

    @Override
    public void unlock() {
      if (!isHeldByCurrentThread()) {
        super.unlock(); // throws IllegalMonitorStateException
        return;
      }
      released(this);
      super.unlock();
    }

    @Override
    public String toString() {
      return super.toString() + "[" + name + "]";
    }
  }
}
