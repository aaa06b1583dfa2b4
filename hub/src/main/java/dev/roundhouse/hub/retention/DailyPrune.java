package dev.roundhouse.hub.retention;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.api.RetentionApi.PruneRequest;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The automatic prune: a virtual thread looks every hour whether a day has passed on the hub's clock since
 * the last automatic run (the first is due at start, so it runs at the first look, an hour after boot) and
 * then prunes with the policy's days, as {@code scheduler}. A run that fails (another prune running, a store
 * error) is logged and tried again at the next look.
 *
 * <p>Thread-safe: {@code lock} guards creating and stopping the timer, never the prune; {@link #tick} may also
 * be called by tests.
 */
final class DailyPrune implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DailyPrune.class);
  private static final long LOOK_EVERY_MINUTES = 60;

  private final Retention retention;
  private final Clock clock;
  private final ReentrantLock lock = Locks.tracked("retention-daily");
  private volatile Instant due;

  @GuardedBy("lock")
  private ScheduledExecutorService timer;

  DailyPrune(Retention retention, Clock clock) {
    this.retention = retention;
    this.clock = clock;
    this.due = clock.instant();
  }

  void start() {
    if (!retention.settings().automatic()) {
      return;
    }
    lock.lock();
    try {
      if (timer != null) {
        return;
      }
      timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("roundhouse-retention").factory());
      timer.scheduleWithFixedDelay(this::tickQuietly, LOOK_EVERY_MINUTES, LOOK_EVERY_MINUTES, TimeUnit.MINUTES);
    } finally {
      lock.unlock();
    }
  }

  /** When the next automatic run is due on the hub's clock. */
  Instant due() {
    return due;
  }

  /** Prunes when a run is due; true when it ran. */
  boolean tick() {
    if (!retention.settings().automatic()) {
      return false;
    }
    Instant now = clock.instant();
    if (now.isBefore(due)) {
      return false;
    }
    retention.prune(Actor.SCHEDULER, new PruneRequest(null, false));
    due = now.plus(RetentionSettings.EVERY);
    return true;
  }

  private void tickQuietly() {
    try {
      tick();
    } catch (RuntimeException e) {
      log.warn("the daily retention prune failed; trying again in {} minutes", LOOK_EVERY_MINUTES, e);
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (timer != null) {
        timer.shutdownNow();
      }
    } finally {
      lock.unlock();
    }
  }
}
