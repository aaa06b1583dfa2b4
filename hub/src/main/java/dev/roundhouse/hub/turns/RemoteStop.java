package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.model.Turn;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code turn_stop} at one hub worker for a turn another worker runs: it records {@code turn.stop_requested}
 * (the worker running the turn hears it and stops it, {@link WorkerSignals}) and waits for the turn's {@code
 * turn.ended}. When that worker is dead (its lease ran out), this one ends the turn itself, as the lease sweep
 * would.
 *
 * <p>Thread-safe: stateless; blocks the caller up to the stop grace plus one lease renewal, with no lock held.
 */
final class RemoteStop {
  private RemoteStop() {}

  /**
   * Stops {@code task}'s turn running on another worker; returns its id once it has ended, or empty when no
   * other worker runs a turn of the task.
   *
   * @throws RoundhouseException when the worker running it did not end it in time and still holds its lease
   */
  static Optional<Long> stop(RunnerParts parts, Actor actor, long task) {
    Turn turn = parts.store().read(r -> r.runner().activeTurn(task)).orElse(null);
    if (turn == null) {
      return Optional.empty();
    }
    String holder = parts.store().read(r -> r.runner().turnWorker(turn.id())).orElse(null);
    if (holder == null || holder.equals(parts.worker())) {
      return Optional.empty(); // leased here but no loop runs it: nothing of it is left to stop
    }
    CountDownLatch ended = new CountDownLatch(1);
    Consumer<List<Event>> watch = batch -> {
      for (Event event : batch) {
        if ("turn.ended".equals(event.type()) && event.data().path("turn").asLong() == turn.id()) {
          ended.countDown();
        }
      }
    };
    parts.events().observe(watch);
    try {
      boolean asked = parts.store().write(w -> {
        if (w.runner().turn(turn.id()).map(Turn::active).orElse(false)) {
          w.append(new RunnerEvent.StopRequested(turn.id(), holder).draft(actor, TurnLoop.projectOf(w, task), task));
          return true;
        }
        return false;
      });
      Duration patience = parts.settings().stopGrace().plus(parts.settings().turnLease().dividedBy(6));
      if (!asked || ended.await(patience.toMillis(), TimeUnit.MILLISECONDS)) {
        return Optional.of(turn.id());
      }
      if (TurnRecovery.endOrphans(parts.store(), parts.worker(), parts.clock().instant()).stream().anyMatch(t -> t.id() == turn.id())) {
        return Optional.of(turn.id());
      }
      boolean stillActive = parts.store().read(r -> r.runner().turn(turn.id())).map(Turn::active).orElse(false);
      if (!stillActive) {
        return Optional.of(turn.id());
      }
      throw new RoundhouseException("stop_timeout", "asked hub worker " + holder + " to stop turn " + turn.id() + " of task "
          + task + ", and it has not ended within " + patience.toSeconds() + " s; the worker still holds the turn");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RoundhouseException("stop_timeout", "interrupted while waiting for turn " + turn.id() + " to stop");
    } finally {
      parts.events().unobserve(watch);
    }
  }
}
