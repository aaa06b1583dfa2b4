package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What other hub workers ask of this worker's turns, heard on the event bus (which delivers every worker's
 * events on a shared database): a message queued for a task whose loop runs here wakes that loop (a lingering
 * session takes it), and a {@code turn.stop_requested} for a turn running here stops it. This worker's own
 * sends and stops act directly; hearing them again is harmless (a wake is a permit, a stop happens once).
 *
 * <p>Thread-safe: the observer runs on the bus's publishing thread and never blocks there; a stop, which runs
 * the driver's stop actions, runs on a virtual thread of its own.
 */
final class WorkerSignals {
  private static final Logger log = LoggerFactory.getLogger(WorkerSignals.class);

  private WorkerSignals() {}

  /** Stops this worker's loop of a task if it still runs the turn named, on behalf of the actor who asked. */
  @FunctionalInterface
  interface TurnStopper {
    void stop(Actor actor, long task, long turn);
  }

  static void listen(EventBus events, ActiveTurns active, TurnStopper stop) {
    events.observe((List<Event> batch) -> {
      for (Event event : batch) {
        if (event.taskId() == null) {
          continue; // not a task's: nothing of a turn's
        }
        long task = event.taskId();
        switch (event.type()) {
          case "turn.queued" -> active.of(task).ifPresent(ActiveTurn::wake);
          case "turn.stop_requested" -> {
            long turn = event.data().path("turn").asLong();
            active.of(task).filter(loop -> loop.turnId == turn).ifPresent(loop ->
                Thread.ofVirtual().name("roundhouse-remote-stop-" + task).start(() -> {
                  try {
                    stop.stop(event.actor(), task, turn);
                  } catch (RuntimeException e) {
                    log.warn("stopping turn {} of task {} as another worker asked failed: {}", turn, task, e.getMessage());
                  }
                }));
          }
          default -> { }
        }
      }
    });
  }
}
