package dev.roundhouse.hubclient;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import dev.roundhouse.hub.core.Locks;

/**
 * The wait between attempts to reconnect to a hub stream, cut short by {@link #close()}: what the event
 * followers (the editor faces' and the CLI's {@code events}) share.
 *
 * <p>Thread-safety: {@link #pause()} runs on the follower's thread; {@link #close()} may be called from any
 * thread and wakes it. {@code lock} guards only the wait; nothing else runs under it.
 */
public final class ReconnectPause implements AutoCloseable {
  private final Duration delay;
  private final ReentrantLock lock = Locks.tracked("reconnect-pause");
  private final Condition closedSignal = lock.newCondition();
  private volatile boolean closed;

  public ReconnectPause(Duration delay) {
    this.delay = delay;
  }

  /** Waits {@code delay}, or less when closed meanwhile; an interrupt closes it. */
  public void pause() {
    lock.lock();
    try {
      long nanos = delay.toNanos();
      while (!closed && nanos > 0) {
        nanos = closedSignal.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@link #close()} was called (or a pause interrupted): the follower should stop. */
  public boolean closed() {
    return closed;
  }

  /** Ends any pause now and every later one at once. */
  @Override
  public void close() {
    closed = true;
    lock.lock();
    try {
      closedSignal.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
