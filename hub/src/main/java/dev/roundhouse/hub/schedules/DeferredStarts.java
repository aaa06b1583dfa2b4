package dev.roundhouse.hub.schedules;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.turns.TurnRunner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deferred starts: a task with a {@code start_at} starts its first turn at that time (see {@link AutoStartRule}
 * for when exactly, and {@link StartSweep} for how it happens at most once). Its own tick, independent of the
 * scheduler and of any switch that turns the scheduler off.
 *
 * <p>One virtual thread, {@code roundhouse-deferred-starts}, sweeps the due tasks at {@link #open()} (a
 * {@code start_at} that passed while the hub was down starts then), then sleeps until the earliest {@code
 * start_at} to come or for a minute, whichever is sooner, as the injected {@link Clock} counts. A task created or
 * changed with a {@code start_at} wakes it early to recompute. Tests call {@link #sweep(Instant)} with the time
 * they chose instead of waiting.
 *
 * <p>Thread-safe. {@code lock} guards only the wake-up flags; nothing is called while it is held.
 */
public final class DeferredStarts implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DeferredStarts.class);
  /** The longest the sweeper sleeps: a clock that jumps, or a task it was not told about, waits at most this. */
  static final Duration TICK = Duration.ofMinutes(1);
  private static final int PAGE = 200;

  private final Store store;
  private final EventBus events;
  private final Clock clock;
  private final StartSweep starts;
  private final Consumer<List<Event>> observer = this::observe;
  private final ReentrantLock lock = Locks.tracked("deferred starts");
  private final Condition wake = lock.newCondition();

  @GuardedBy("lock")
  private boolean nudged;

  @GuardedBy("lock")
  private boolean closed;

  @GuardedBy("lock")
  private Thread thread;

  public DeferredStarts(Store store, EventBus events, TurnRunner runner, Clock clock) {
    this.store = store;
    this.events = events;
    this.clock = clock;
    this.starts = new StartSweep(store, runner);
  }

  /** Starts the sweeper; its first sweep runs at once. Call once, after the runner and the extensions opened. */
  public void open() {
    events.observe(observer);
    lock.lock();
    try {
      if (thread != null || closed) {
        return;
      }
      thread = Thread.ofVirtual().name("roundhouse-deferred-starts").unstarted(this::run);
      thread.start();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Starts every task whose deferred start is due at {@code now}, one after another, and returns how many started.
   * The sweeper calls it on each tick; tests call it with the time they chose.
   */
  public int sweep(Instant now) {
    int started = 0;
    long after = 0;
    while (true) {
      long from = after;
      List<Long> due = store.read(r -> r.dueStarts(now, from, PAGE));
      for (long id : due) {
        if (starts.attempt(id, now) == StartSweep.Outcome.STARTED) {
          started++;
        }
      }
      if (due.size() < PAGE) {
        return started;
      }
      after = due.getLast();
    }
  }

  /** When the sweeper wakes next, after a sweep at {@code now}: the earliest start to come, at most a tick away. */
  Duration nextWait(Instant now) {
    Duration wait = store.read(r -> r.nextStartAfter(now)).map(next -> Duration.between(now, next)).orElse(TICK);
    return wait.compareTo(TICK) > 0 ? TICK : wait;
  }

  private void run() {
    while (true) {
      Duration wait = TICK;
      try {
        Instant now = clock.instant();
        sweep(now);
        wait = nextWait(now);
      } catch (RuntimeException e) {
        if (isClosed()) {
          return;
        }
        log.warn("deferred-start sweep failed; trying again in {}", TICK, e);
      }
      if (!sleep(wait)) {
        return;
      }
    }
  }

  /** Sleeps for {@code wait} or until nudged; false once closed. */
  private boolean sleep(Duration wait) {
    long nanos = Math.max(1, wait.toNanos());
    lock.lock();
    try {
      while (!nudged && !closed && nanos > 0) {
        nanos = wake.awaitNanos(nanos);
      }
      nudged = false;
      return !closed;
    } catch (InterruptedException e) {
      return false;
    } finally {
      lock.unlock();
    }
  }

  private boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /** On the writer's thread: a task created or changed with a start time wakes the sweeper to look again. */
  private void observe(List<Event> batch) {
    for (Event event : batch) {
      if (event.type().equals("task.created") || event.type().equals("task.updated")) {
        JsonNode startAt = event.data().path("task").path("start_at");
        if (!startAt.isMissingNode() && !startAt.isNull()) {
          nudge();
          return;
        }
      }
    }
  }

  private void nudge() {
    lock.lock();
    try {
      nudged = true;
      wake.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Stops the sweeper and waits briefly for a sweep under way. Call before the runner closes. */
  @Override
  public void close() {
    events.unobserve(observer);
    Thread running;
    lock.lock();
    try {
      closed = true;
      wake.signalAll();
      running = thread;
    } finally {
      lock.unlock();
    }
    Joins.awaitStop(running, "the deferred-start sweeper", log);
  }
}
