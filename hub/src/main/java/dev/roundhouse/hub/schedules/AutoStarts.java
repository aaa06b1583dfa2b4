package dev.roundhouse.hub.schedules;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.turns.TurnRunner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dependents: a task marked {@code auto_start} starts its first turn when its last blocker is done or cancelled,
 * whichever path made that change (see {@link AutoStartRule} for the whole rule, {@link StartSweep} for how it
 * starts at most once).
 *
 * <p><b>The seam.</b> Every change to a task, by any path (the user's {@code task_update} and {@code task_move},
 * an agent's tool, a turn's agent, the scheduler, an edit reverted, a suggestion withdrawn, an extension through
 * the board), is a board write that appends its {@code task.*} events in the same transaction, and the store hands
 * every committed batch to the {@link EventBus}. This class observes the bus ({@link EventBus#observe}): it cannot
 * miss a path, since no change to a task commits without its event, and it runs after the commit and outside
 * every lock, never inside a store write. The observer only notes which tasks changed and wakes this class's
 * thread, which judges them and their dependents on a fresh read. What a crash could lose between a commit and
 * the start (the noted ids live in memory) is recovered at {@link #open()}, which judges every task marked
 * {@code auto_start}.
 *
 * <p>One virtual thread, {@code roundhouse-auto-starts}, does the judging and starting.
 *
 * <p>Thread-safe. {@code lock} guards the set of changed tasks; nothing is called while it is held.
 */
public final class AutoStarts implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AutoStarts.class);

  private final Store store;
  private final EventBus events;
  private final Clock clock;
  private final StartSweep starts;
  private final Consumer<List<Event>> observer = this::observe;
  private final ReentrantLock lock = Locks.tracked("auto starts");
  private final Condition changed = lock.newCondition();

  @GuardedBy("lock")
  private final Set<Long> pending = new LinkedHashSet<>();

  @GuardedBy("lock")
  private boolean closed;

  @GuardedBy("lock")
  private Thread thread;

  public AutoStarts(Store store, EventBus events, TurnRunner runner, Clock clock) {
    this.store = store;
    this.events = events;
    this.clock = clock;
    this.starts = new StartSweep(store, runner);
  }

  /**
   * Starts observing the board and the thread that acts on it; judges every task marked {@code auto_start} first
   * (a blocker that ended just before a crash). Call once, after the runner and the extensions opened.
   */
  public void open() {
    events.observe(observer);
    List<Long> marked = store.read(r -> r.autoStartTasks());
    lock.lock();
    try {
      if (thread != null || closed) {
        return;
      }
      pending.addAll(marked);
      thread = Thread.ofVirtual().name("roundhouse-auto-starts").unstarted(this::run);
      thread.start();
    } finally {
      lock.unlock();
    }
  }

  /** On the writer's thread: notes the tasks a batch changed and wakes the thread. Never blocks for long. */
  private void observe(List<Event> batch) {
    List<Long> ids = new ArrayList<>();
    for (Event event : batch) {
      switch (event.type()) {
        case "task.created", "task.updated" -> {
          if (event.taskId() != null) {
            ids.add(event.taskId());
          }
        }
        case "task.deleted" -> {
          // The tasks it blocked lost an edge: they may have no open blocker left.
          for (JsonNode waiter : event.data().path("unblocked")) {
            ids.add(waiter.asLong());
          }
        }
        default -> {}
      }
    }
    if (ids.isEmpty()) {
      return;
    }
    lock.lock();
    try {
      pending.addAll(ids);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    while (true) {
      List<Long> batch;
      lock.lock();
      try {
        while (pending.isEmpty() && !closed) {
          changed.awaitUninterruptibly();
        }
        if (closed) {
          return;
        }
        batch = List.copyOf(pending);
        pending.clear();
      } finally {
        lock.unlock();
      }
      for (long id : batch) {
        try {
          judge(id);
        } catch (RuntimeException e) {
          if (isClosed()) {
            return;
          }
          log.warn("judging whether task {} or its dependents start by themselves failed", id, e);
        }
      }
    }
  }

  /** Tries task {@code id} itself and every task it blocks. */
  private void judge(long id) {
    List<Long> candidates = store.read(r -> {
      Optional<Task> task = r.task(id);
      if (task.isEmpty()) {
        return List.<Long>of();
      }
      List<Long> found = new ArrayList<>();
      if (AutoStartRule.armed(task.get())) {
        found.add(id);
      }
      if (AutoStartRule.terminal(task.get().status())) {
        for (Map.Entry<Long, List<Long>> edge : r.blockerEdges(task.get().projectId()).entrySet()) {
          if (edge.getValue().contains(id)) {
            found.add(edge.getKey());
          }
        }
      }
      return found;
    });
    for (long candidate : candidates) {
      starts.attempt(candidate, clock.instant());
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

  /** Stops observing and the thread, waiting briefly for a start under way. Call before the runner closes. */
  @Override
  public void close() {
    events.unobserve(observer);
    Thread running;
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
      running = thread;
    } finally {
      lock.unlock();
    }
    Joins.awaitStop(running, "the auto-start thread", log);
  }
}
