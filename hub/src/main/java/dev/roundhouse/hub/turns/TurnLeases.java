package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.model.Turn;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This worker's hold on its turns, and the end of the turns of workers that died. Every sixth of the lease
 * ({@link RunnerSettings#turnLease}) it:
 *
 * <ol>
 *   <li>renews the leases of this worker's running and lingering turns, in one write;
 *   <li>stops any loop of this worker whose turn another worker took over (this one went silent for longer
 *       than the lease: a stalled process, a database it could not reach);
 *   <li>ends as interrupted the turns whose lease ran out ({@link TurnRecovery#endOrphans}) and starts the next
 *       queued message of each of their tasks here.
 * </ol>
 *
 * <p>On a database of its own (SQLite) there is no other worker: renewing keeps the columns true, and the
 * sweep finds nothing.
 *
 * <p>Thread-safe: one platform thread of its own; the counters are adders.
 */
final class TurnLeases implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TurnLeases.class);

  private final RunnerParts parts;
  private final ActiveTurns active;
  private final LongConsumer resumeQueue;
  private final LongAdder renewals = new LongAdder();
  private final LongAdder losses = new LongAdder();
  private final LongAdder takenOver = new LongAdder();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("roundhouse-turn-leases").daemon(true).factory());

  /** @param resumeQueue starts a task's next queued message here, if it has one and no turn is running */
  TurnLeases(RunnerParts parts, ActiveTurns active, LongConsumer resumeQueue) {
    this.parts = parts;
    this.active = active;
    this.resumeQueue = resumeQueue;
  }

  void start() {
    long every = Math.max(100, parts.settings().turnLease().toMillis() / 6);
    timer.scheduleWithFixedDelay(this::keepQuietly, 0, every, TimeUnit.MILLISECONDS);
  }

  private void keepQuietly() {
    try {
      keep();
    } catch (RuntimeException e) {
      // the database away for a moment: the next round tries again, well within the lease
      log.warn("keeping this worker's turn leases failed: {}", e.getMessage());
    }
  }

  /** One round: renew, let go of lost turns, end the orphans of dead workers. */
  void keep() {
    String worker = parts.worker();
    Instant now = parts.clock().instant();
    List<Long> renewed = parts.store().write(w -> w.runner().renewLeases(worker, now.plus(parts.settings().turnLease())));
    renewals.add(renewed.size());
    Set<Long> held = new HashSet<>(renewed);
    for (ActiveTurn loop : active.all()) {
      long turn = loop.turnId;
      if (held.contains(turn) || loop.stopped()) {
        continue; // still ours, or already winding down
      }
      String holder = parts.store().read(r -> r.runner().turnWorker(turn)).orElse(worker);
      if (!holder.equals(worker)) {
        losses.increment();
        log.warn("turn {} of task {} was taken over by worker {} after this worker's lease ran out; stopping it here",
            turn, loop.taskId, holder);
        active.stop(loop, "another hub worker ended the turn after this worker's lease on it ran out");
      }
    }
    List<Turn> orphans = TurnRecovery.endOrphans(parts.store(), worker, now);
    for (Turn orphan : orphans) {
      takenOver.increment();
      log.info("ended turn {} of task {} as interrupted: its worker stopped renewing its lease", orphan.id(), orphan.taskId());
    }
    orphans.stream().mapToLong(Turn::taskId).distinct().forEach(resumeQueue);
  }

  /** Lease renewals, turns this worker lost, and dead workers' turns it ended, since the start. */
  long renewals() {
    return renewals.sum();
  }

  long losses() {
    return losses.sum();
  }

  long takenOver() {
    return takenOver.sum();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
