package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Generation;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.process.ProcessScope;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import dev.roundhouse.hub.store.StoreWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.EventDraft;

/**
 * One task's turn loop (OkHttp's RealCall to {@link ActiveTurns}' Dispatcher): on a virtual thread of its
 * own it runs a turn, records how it ended, then takes the task's next queued message in the same write, until
 * the queue is empty or the loop is stopped. The store is the arbiter of "is a turn running on this task":
 * starting, queueing and finishing are each one write, so a message is never lost between a finishing turn
 * and a new send.
 *
 * <p>Thread-safe: each loop's state is its {@link ActiveTurn}; no lock is held while calling a driver, an
 * extension or the store.
 */
final class TurnLoop {
  private static final Logger log = LoggerFactory.getLogger(TurnLoop.class);

  /** A turn that was written as started and has yet to run. */
  record Launch(Turn turn, String message, String model, String permissionMode, boolean projectContext, List<McpServerSpec> mcpServers) {}

  private record Setup(Task task, Project project, List<String> summaries, String resume) {}

  private final RunnerParts parts;
  private final DriverRegistry drivers;
  private final TurnPreparation preparation;
  private final SettingsDrift drift;
  private final DecisionParking parking;
  private final ActiveTurns active;
  private final BooleanSupplier closing;

  TurnLoop(RunnerParts parts, DriverRegistry drivers, TurnPreparation preparation, DecisionParking parking,
      ActiveTurns active, BooleanSupplier closing) {
    this.parts = parts;
    this.drivers = drivers;
    this.preparation = preparation;
    this.drift = new SettingsDrift(parts, parking);
    this.parking = parking;
    this.active = active;
    this.closing = closing;
  }

  /** Writes a turn as started, with its message, inside {@code w}'s transaction; the caller launches it. */
  static Launch begin(StoreWriter w, RunnerParts parts, Actor actor, long task, Project project, String message, String driver,
      boolean unattended, String model, String permissionMode, boolean projectContext, List<McpServerSpec> mcpServers) {
    Turn turn = w.runner().insertTurn(task, w.runner().generation(task), driver, unattended, actor, w.now());
    w.runner().leaseTurn(turn.id(), parts.worker(), w.now().plus(parts.settings().turnLease()));
    List<Map<String, String>> servers = mcpServers.stream().map(McpServerSpec::summary).toList();
    w.append(new RunnerEvent.Started(turn.id(), driver, unattended, servers.isEmpty() ? null : servers).draft(actor, project.id(), task));
    w.append(new RunnerEvent.UserMessage(turn.id(), message).draft(actor, project.id(), task));
    return new Launch(turn, message, model, permissionMode, projectContext, mcpServers);
  }

  /** Starts the task's loop with its first turn. */
  void launch(Launch first) {
    long task = first.turn().taskId();
    ActiveTurn loop = new ActiveTurn(task, first.turn().id(), parts.clock().instant());
    active.add(loop);
    loop.thread = Thread.ofVirtual().name("roundhouse-turn-" + task).start(() -> run(loop, first));
  }

  private void run(ActiveTurn loop, Launch first) {
    Launch current = first;
    try {
      while (current != null) {
        loop.turnId = current.turn().id();
        TurnOutcome ran = runOne(loop, current);
        Thread.interrupted(); // a stop interrupts the driver, not the bookkeeping that follows
        // The runner itself may have failed the turn (an unattended question) and stopped it to end it.
        TurnOutcome outcome = loop.failure().map(TurnOutcome::failed).orElse(ran);
        current = finish(loop, current.turn().id(), outcome, true, current.mcpServers());
      }
    } catch (RuntimeException e) {
      log.error("turn loop of task {} failed", loop.taskId, e);
    } finally {
      active.remove(loop);
    }
  }

  private TurnOutcome runOne(ActiveTurn loop, Launch launch) {
    Turn turn = launch.turn();
    try {
      AgentDriver driver = drivers.get(turn.driver());
      Setup setup = setup(turn, driver);
      Optional<TurnOutcome> declined = drift.check(loop, turn, setup.project, driver);
      if (declined.isPresent()) {
        return declined.get();
      }
      List<TurnContributor> owners = preparation.owners(setup.project, setup.task);
      TurnPlace place = preparation.place(setup.project, setup.task);
      recordPlace(turn, setup.project, place);
      TurnRequest request = new TurnRequest(
          turn.id(), turn.taskId(), setup.project.name(), place.workingDirectory(), launch.message(),
          TurnPreparation.contextText(setup.project, setup.task, owners, launch.projectContext()), setup.summaries, setup.resume, launch.model(),
          launch.permissionMode(), turn.unattended(), place.environment(),
          TurnPreparation.systemPrompt(setup.project, setup.task, owners), launch.mcpServers());
      try (ProcessScope processes = parts.processes().open(turn.id())) {
        RunnerTurnContext context = new RunnerTurnContext(parts, parking, active, loop, turn.id(), setup.project, driver,
            turn.unattended(), TurnPreparation.agentTools(owners), processes);
        try {
          Locks.assertNoneHeld("driver " + driver.id() + "'s run");
          driver.run(request, context);
        } finally {
          context.closeEndpoint();
        }
      }
      return loop.stopped() ? TurnOutcome.STOPPED : TurnOutcome.COMPLETED;
    } catch (TurnStoppedException e) {
      return TurnOutcome.STOPPED;
    } catch (InterruptedException e) {
      return loop.stopped() ? TurnOutcome.STOPPED : TurnOutcome.failed("interrupted");
    } catch (Exception e) {
      if (loop.stopped()) {
        return TurnOutcome.STOPPED;
      }
      String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
      log.warn("turn {} of task {} failed: {}", turn.id(), turn.taskId(), message);
      recordError(turn, message);
      return TurnOutcome.failed(message);
    }
  }

  private Setup setup(Turn turn, AgentDriver driver) {
    return parts.store().read(r -> {
      Task task = r.task(turn.taskId()).orElseThrow(() -> new RoundhouseException.NotFound("task " + turn.taskId() + " was deleted"));
      Project project = r.project(task.projectId()).orElseThrow();
      List<String> summaries = r.runner().generations(task.id()).stream().map(Generation::summary).toList();
      String resume = driver.capabilities().supportsResume()
          ? r.runner().turns(task.id(), 20).stream()
              .filter(t -> t.id() != turn.id() && t.generation() == turn.generation() && t.driver().equals(turn.driver()) && t.sessionId() != null)
              .map(Turn::sessionId).findFirst().orElse(null)
          : null;
      return new Setup(task, project, summaries, resume);
    });
  }

  /** Says in the transcript where a turn runs when a module moved it or had something to say about it. */
  private void recordPlace(Turn turn, Project project, TurnPlace place) {
    if (place.notes().isEmpty() && place.workingDirectory().equals(Path.of(project.path()).toAbsolutePath())) {
      return;
    }
    RunnerEvent.Placed placed = new RunnerEvent.Placed(turn.id(), place.workingDirectory().toString(), place.notes());
    parts.store().append(placed.draft(Actor.agent(turn.taskId()), project.id(), turn.taskId()));
  }

  private void recordError(Turn turn, String message) {
    try {
      parts.store().write(w -> {
        TurnEvent.Error error = new TurnEvent.Error(message);
        var data = (ObjectNode) Json.tree(error);
        data.put("turn", turn.id());
        w.append(new EventDraft(error.type(), Actor.agent(turn.taskId()), projectOf(w, turn.taskId()), turn.taskId(), data));
        return null;
      });
    } catch (RuntimeException ignored) {
      // the task may be gone
    }
  }

  /**
   * Ends a turn (unless something else already did) and, when the loop goes on, takes the next queued message
   * and begins its turn in the same write; returns that launch, or null when the loop ends.
   */
  Launch finish(ActiveTurn loop, long turnId, TurnOutcome outcome, boolean continueWithQueue) {
    return finish(loop, turnId, outcome, continueWithQueue, List.of());
  }

  /**
   * As {@link #finish(ActiveTurn, long, TurnOutcome, boolean)}; the next turn gets {@code mcpServers} (those of
   * the turn that ends: a face's MCP servers stay with the loop it started, in memory only).
   */
  Launch finish(ActiveTurn loop, long turnId, TurnOutcome outcome, boolean continueWithQueue, List<McpServerSpec> mcpServers) {
    TurnOutcome recorded = closing.getAsBoolean() && outcome.status() == TurnStatus.STOPPED
        ? new TurnOutcome(TurnStatus.INTERRUPTED, "the hub shut down while the turn was running")
        : outcome;
    try {
      return parts.store().write(w -> {
        Turn turn = w.runner().turn(turnId).orElse(null);
        if (turn == null) {
          return null; // the task was deleted
        }
        if (turn.active()) {
          end(w, turn, recorded, Actor.agent(turn.taskId()));
        }
        if (!continueWithQueue || loop.stopped() || closing.getAsBoolean()) {
          return null;
        }
        Optional<QueuedMessage> next = w.runner().dequeue(turn.taskId());
        if (next.isEmpty()) {
          return null;
        }
        Project project = w.project(projectOf(w, turn.taskId())).orElseThrow();
        String driver = next.get().driver() != null ? next.get().driver() : turn.driver();
        return begin(w, parts, next.get().queuedBy(), turn.taskId(), project, next.get().message(), driver, turn.unattended(), null, null, true, mcpServers);
      });
    } catch (RuntimeException e) {
      log.error("cannot finish turn {}", turnId, e);
      return null;
    }
  }

  /** Records a turn's end, with its {@code turn.ended} event, inside {@code w}'s transaction. */
  static void end(StoreWriter w, Turn turn, TurnOutcome outcome, Actor actor) {
    w.runner().endTurn(turn.id(), outcome.status(), outcome.reason(), w.now());
    w.append(new RunnerEvent.Ended(turn.id(), outcome.status(), outcome.reason()).draft(actor, projectOf(w, turn.taskId()), turn.taskId()));
  }

  static Long projectOf(StoreWriter w, long task) {
    return w.task(task).map(Task::projectId).orElse(null);
  }
}
