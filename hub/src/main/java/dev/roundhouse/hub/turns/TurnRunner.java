package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.DriverChoice;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AgentEndpoints;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnPlacer;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import java.util.function.BiConsumer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs agent turns, detached from whoever started them: the turn operations' rules. Each task with work has
 * one {@link TurnLoop} on a virtual thread of its own; {@link ActiveTurns} owns the running loops and is the
 * one way to stop one; {@link IdleWatchdog} marks hung turns idle; {@link TurnPreparation} holds what
 * extensions add to turns.
 *
 * <p>Lifecycle: construct (no work, no thread), {@link #open()} once before the first operation (it finalises
 * what a previous process left running and starts the watchdog), {@link #close()} on shutdown.
 *
 * <p>Thread-safe. No lock is held while calling a driver, an extension or the store.
 */
public final class TurnRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);

  private final RunnerParts parts;
  private final DriverRegistry drivers;
  private final ActiveTurns active;
  private final TurnPreparation preparation = new TurnPreparation();
  private final DecisionParking parking;
  private final TurnLoop loops;
  private final IdleWatchdog watchdog;
  private final TurnLeases leases;
  private volatile boolean closing;
  private volatile AgentEndpoints agentEndpoints = AgentEndpoints.NONE;

  /**
   * @param containment how the processes of turns are contained (see {@code docs/processes.md})
   * @param worker this hub worker's id in the registry: its turns are leased to it
   */
  public TurnRunner(
      Store store, EventBus events, DriverRegistry drivers, Decisions decisions, OperationRegistry operations,
      RunnerSettings settings, Clock clock, Containment containment, String worker) {
    this.parts = new RunnerParts(store, events, decisions, operations, settings, clock, () -> agentEndpoints,
        new TurnProcesses(containment, store), worker);
    this.drivers = drivers;
    this.active = new ActiveTurns(decisions);
    this.parking = new DecisionParking(parts);
    this.loops = new TurnLoop(parts, drivers, preparation, parking, active, () -> closing);
    this.watchdog = new IdleWatchdog(parts, active);
    this.leases = new TurnLeases(parts, active, this::resumeQueue);
  }

  /**
   * Ends every process the turns of a previous hub left running (see {@link Containment#reapLeftovers}) and
   * starts the idle watchdog. On a database of its own (SQLite) it also finalises the turns the previous hub
   * left running as {@code interrupted} and expires every pending decision ({@link TurnRecovery}). On a
   * database shared with other workers it starts hearing what they ask of this worker's turns ({@link
   * WorkerSignals}); the turns of a dead worker are left to {@link #startLeases()}. Call once, while holding
   * the home's lock, before the first operation.
   */
  public void open() {
    parts.processes().reapLeftovers(parts.settings().stopGrace());
    if (parts.store().sharedWithOtherWriters()) {
      WorkerSignals.listen(parts.events(), active, this::stopIfRunning);
    } else {
      int interrupted = TurnRecovery.recover(parts.store());
      if (interrupted > 0) {
        log.info("finalised {} turn(s) a previous hub left running as interrupted", interrupted);
      }
    }
    watchdog.start();
  }

  /**
   * On a database shared with other workers, starts keeping this worker's turn leases and ending the turns of
   * dead workers, whose queued messages it then runs ({@link TurnLeases}); the first round runs at once. Call
   * after the extensions have registered their placers and contributors, since a taken-over queue starts
   * turns. Does nothing on a database of its own.
   */
  public void startLeases() {
    if (parts.store().sharedWithOtherWriters()) {
      leases.start();
    }
  }

  /** Starts {@code task}'s next queued message here when it has one and no turn runs (its worker died). */
  private void resumeQueue(long task) {
    try {
      startIfAdmitted(Actor.SCHEDULER, task, null,
          w -> !w.runner().queue(task).isEmpty() && w.runner().activeTurn(task).isEmpty())
          .ifPresent(view -> log.info("took up the queued messages of task {} with turn {}", task, view.turn().id()));
    } catch (RuntimeException e) {
      log.warn("cannot take up the queued messages of task {}: {}", task, e.getMessage());
    }
  }

  /** Lease renewals, turns lost to another worker, and dead workers' turns ended here, since the start. */
  public LeaseCounts leaseCounts() {
    return new LeaseCounts(leases.renewals(), leases.losses(), leases.takenOver());
  }

  /** What {@link #leaseCounts()} reports. */
  public record LeaseCounts(long renewals, long losses, long takenOver) {}

  /** Registers the face that serves turns' agents their task-scoped MCP endpoint (the MCP face does). */
  public void useAgentEndpoints(AgentEndpoints endpoints) {
    this.agentEndpoints = Objects.requireNonNull(endpoints, "endpoints");
  }

  /** Adds an extension's context and agent tools to the turns of the tasks it owns (extensions register at start). */
  public void contributeToTurns(TurnContributor contributor) {
    preparation.add(contributor);
  }

  /** Adds a module's say in where turns run (extensions register at start); asked in registration order. */
  public void placeTurns(TurnPlacer placer) {
    preparation.add(placer);
  }

  /**
   * Where {@code task}'s agent works, as every registered placer decides (it may create or repair a worktree,
   * so it may block); the project's own folder when none changes it.
   *
   * @throws RoundhouseException.NotFound when there is no such task
   */
  public TurnPlace placeOf(long task) {
    Target target = taskAndProject(task);
    return preparation.place(target.project(), target.task());
  }

  /**
   * The operations {@code task}'s agent may call as tools: the agents' tools, plus those of every
   * contributor that owns the task. An in-process driver is offered these; an agent's MCP session lists them.
   *
   * @throws RoundhouseException.NotFound when there is no such task
   */
  public Set<String> agentTools(long task) {
    Target target = taskAndProject(task);
    return TurnPreparation.agentTools(preparation.owners(target.project(), target.task()));
  }

  // ---- operations ---------------------------------------------------------------------------

  public TurnApi.TurnView start(Actor actor, TurnApi.TurnStart in) {
    return start(actor, in, (w, turn) -> {});
  }

  /**
   * Starts a turn as {@link #start(Actor, TurnApi.TurnStart)} does, and runs {@code alsoInWrite} in the same
   * transaction that records the turn: what the caller writes there commits with the start or not at all (a
   * scheduled run marks itself running, so no second start can happen). {@code alsoInWrite} may throw to
   * refuse the start.
   */
  public TurnApi.TurnView start(Actor actor, TurnApi.TurnStart in, BiConsumer<StoreWriter, Turn> alsoInWrite) {
    Target target = target(in.task(), in.driver());
    boolean unattended = Boolean.TRUE.equals(in.unattended());
    List<McpServerSpec> servers = mcpServers(actor, in.mcpServers());
    TurnLoop.Launch launch = parts.store().write(w -> {
      refuseIfActive(w, in.task(), "; send a message with turn_send, or stop it with turn_stop");
      if (in.message() != null && !in.message().isBlank()) {
        w.runner().enqueue(in.task(), in.message(), target.driver(), actor, w.now());
      }
      QueuedMessage head = w.runner().dequeue(in.task()).orElseThrow(() -> new RoundhouseException.InvalidInput(
          "task " + in.task() + " has no queued message to run; give a message"));
      TurnLoop.Launch began = TurnLoop.begin(w, parts, actor, in.task(), target.project(), head.message(), target.driver(),
          unattended, in.model(), in.permissionMode(), !Boolean.FALSE.equals(in.projectContext()), servers);
      alsoInWrite.accept(w, began.turn());
      return began;
    });
    return launched(in.task(), launch);
  }

  /**
   * Starts {@code task}'s turn by the hub's own decision (a deferred start, a dependent): {@code gate} has the
   * last word inside the start's store write, and the turn begins in that same write. It runs the oldest queued
   * message, or {@code message} when none is queued. The driver is the task's, or its project's default.
   *
   * @return the started turn, or empty when the gate refused
   * @throws RoundhouseException when the task has no driver to run with (none named, or an unknown one), or
   *     already has a running turn; nothing the gate wrote is kept then
   */
  public Optional<TurnApi.TurnView> startIfAdmitted(Actor actor, long task, String message, StartGate gate) {
    Objects.requireNonNull(gate, "gate");
    Target target = target(task, null);
    TurnLoop.Launch launch = parts.store().write(w -> {
      if (!gate.admit(w)) {
        return null;
      }
      refuseIfActive(w, task, "");
      Optional<QueuedMessage> queued = w.runner().dequeue(task);
      if (queued.isEmpty()) {
        w.runner().enqueue(task, message, target.driver(), actor, w.now());
        queued = w.runner().dequeue(task);
      }
      return TurnLoop.begin(w, parts, actor, task, target.project(), queued.orElseThrow().message(), target.driver(), false,
          null, null, true, List.of());
    });
    return launch == null ? Optional.empty() : Optional.of(launched(task, launch));
  }

  /** Refuses a start while {@code task} has a turn running or lingering; {@code hint} ends the message. */
  private static void refuseIfActive(StoreWriter w, long task, String hint) {
    w.runner().activeTurn(task).ifPresent(turn -> {
      throw new RoundhouseException.Conflict("task " + task + " already has turn " + turn.id() + " " + turn.status() + hint);
    });
  }

  /** Runs a turn begun in a committed write, and returns its view. */
  private TurnApi.TurnView launched(long task, TurnLoop.Launch launch) {
    loops.launch(launch);
    return view(task, launch.turn().id());
  }

  /** What a send did: began a turn, or joined the queue of the running one. */
  private sealed interface Sent {
    record Began(TurnLoop.Launch launch) implements Sent {}

    record Joined(Turn running) implements Sent {}
  }

  public TurnApi.SendResult send(Actor actor, TurnApi.TurnSend in) {
    if (in.message() == null || in.message().isBlank()) {
      throw new RoundhouseException.InvalidInput("message must not be empty");
    }
    Target target = target(in.task(), in.driver());
    List<McpServerSpec> servers = mcpServers(actor, in.mcpServers());
    Sent sent = parts.store().write(w -> {
      w.runner().enqueue(in.task(), in.message(), target.driver(), actor, w.now());
      Optional<Turn> running = w.runner().activeTurn(in.task());
      if (running.isPresent()) {
        int position = w.runner().queue(in.task()).size();
        w.append(new RunnerEvent.Queued(running.get().id(), in.message(), position).draft(actor, target.project().id(), in.task()));
        return new Sent.Joined(running.get());
      }
      QueuedMessage head = w.runner().dequeue(in.task()).orElseThrow();
      return new Sent.Began(TurnLoop.begin(w, parts, actor, in.task(), target.project(), head.message(), target.driver(), false, null, null, true, servers));
    });
    return switch (sent) {
      case Sent.Began began -> {
        loops.launch(began.launch());
        yield new TurnApi.SendResult("started", began.launch().turn(), queue(in.task()));
      }
      case Sent.Joined joined -> {
        active.of(in.task()).ifPresent(ActiveTurn::wake);
        String how = joined.running().status() == TurnStatus.LINGERING ? "lingering" : "queued";
        yield new TurnApi.SendResult(how, joined.running(), queue(in.task()));
      }
    };
  }

  /** Stops the task's turn: the driver's stop actions run, its pending decisions expire (denied). */
  public TurnApi.TurnView stop(Actor actor, long task) {
    ActiveTurn loop = active.of(task).orElse(null);
    if (loop == null) {
      parts.store().read(r -> r.task(task)).orElseThrow(() -> new RoundhouseException.NotFound("no task " + task));
      return RemoteStop.stop(parts, actor, task).map(turnId -> view(task, turnId)).orElseThrow(() ->
          new RoundhouseException.Conflict("task " + task + " has no running turn to stop"));
    }
    long turnId = loop.turnId;
    if (active.stop(loop, "the turn was stopped")) {
      log.info("stopping turn {} of task {} ({})", turnId, task, actor);
    }
    ActiveTurns.awaitEnd(loop, parts.settings().stopGrace());
    if (active.isActive(loop)) {
      // The driver did not wind down in time: finalise the turn anyway; its later emits are refused.
      String reason = "stopped by " + actor + " (the driver did not end within " + parts.settings().stopGrace().toSeconds() + " s)";
      loops.finish(loop, turnId, new TurnOutcome(TurnStatus.STOPPED, reason), false);
      active.remove(loop);
    }
    return view(task, turnId);
  }

  /**
   * Stops {@code task}'s loop here if it still runs {@code turn} (another worker asked for that turn; by now the
   * loop may have gone on to the next queued message, which nobody asked to stop).
   */
  private void stopIfRunning(Actor actor, long task, long turn) {
    active.of(task).filter(loop -> loop.turnId == turn).ifPresent(loop -> stop(actor, task));
  }

  /**
   * Asks the user a question for the agent of a running turn ({@code ask_user}): opens a question decision,
   * parks that turn on it and returns it closed, answered or expired (stop, timeout, restart). Blocks.
   *
   * @throws RoundhouseException.Forbidden when {@code actor} is not an agent
   * @throws RoundhouseException.Conflict when no turn runs on the agent's task, or the run is unattended: then
   *     the question is recorded ({@code turn.question_refused}) and fails the run, which is stopped
   */
  public Decision ask(Actor actor, String question, List<String> options) {
    if (!actor.isAgent()) {
      throw new RoundhouseException.Forbidden(
          "forbidden", "only an agent in a running turn can ask the user (it parks that turn); " + actor + " is not one");
    }
    long task = actor.taskId();
    ActiveTurn loop = active.of(task).filter(l -> !l.stopped()).orElseThrow(() ->
        new RoundhouseException.Conflict("task " + task + " has no running turn to park on the question"));
    long turnId = loop.turnId;
    Turn turn = parts.store().read(r -> r.runner().turn(turnId)).orElseThrow(() -> new RoundhouseException.NotFound("no turn " + turnId));
    long project = parts.store().read(r -> r.task(task)).map(Task::projectId).orElseThrow(() -> new RoundhouseException.NotFound("no task " + task));
    if (turn.unattended()) {
      String reason = UnattendedQuestions.refuse(parts, active, loop, turnId, project, question, options);
      throw new RoundhouseException.Conflict("turn " + turnId + " runs unattended, so the question fails the run (" + reason + ")");
    }
    ObjectNode details = Json.mapper().createObjectNode();
    details.put("turn", turnId);
    details.put("question", question);
    return parking.park(loop, turnId, project, Decision.QUESTION, question, details, options, decision -> null);
  }

  public List<QueuedMessage> queue(long task) {
    return parts.store().read(r -> r.runner().queue(task));
  }

  /** Marks turns idle that produced nothing for the idle time while not parked on a human. */
  public void checkIdle() {
    watchdog.check();
  }

  /** How many task loops are running; for tests and {@code doctor}. */
  public int runningLoops() {
    return active.size();
  }

  // ---- helpers ------------------------------------------------------------------------------

  private record Target(Task task, Project project, String driver) {}

  private Target taskAndProject(long taskId) {
    return parts.store().read(r -> {
      Task task = r.task(taskId).orElseThrow(() -> new RoundhouseException.NotFound("no task " + taskId));
      return new Target(task, r.project(task.projectId()).orElseThrow(), null);
    });
  }

  /** The task, its project and the driver its turn runs with: the one requested, the task's agent, or the project's default. */
  private Target target(long taskId, String requestedDriver) {
    Target found = taskAndProject(taskId);
    String driver = DriverChoice.require(requestedDriver, found.task(), found.project(),
        drivers.list().stream().map(AgentDriver::id).toList());
    drivers.get(driver);
    return new Target(found.task(), found.project(), driver);
  }

  /**
   * A face's MCP servers for a turn, checked. An agent may give none: a stdio server is a command the agent
   * CLI starts before any gate could ask about it.
   */
  private static List<McpServerSpec> mcpServers(Actor actor, List<McpServerSpec> given) {
    List<McpServerSpec> servers = McpServerSpec.checked(given);
    if (!servers.isEmpty() && actor.isAgent()) {
      throw new RoundhouseException.Forbidden("forbidden",
          "an agent cannot give a turn MCP servers (a stdio server is a command that would run without the gate); " + actor + " tried");
    }
    return servers;
  }

  private TurnApi.TurnView view(long task, long turnId) {
    return parts.store().read(r -> new TurnApi.TurnView(r.runner().turn(turnId).orElseThrow(), r.runner().queue(task)));
  }

  /** Stops every running turn (on hub shutdown the next start finalises them as interrupted anyway). */
  @Override
  public void close() {
    closing = true;
    watchdog.close();
    leases.close();
    var loops = active.all();
    loops.forEach(loop -> active.stop(loop, "the hub shut down"));
    // Give the loops a moment to record how they ended; whatever is still running is finalised as
    // interrupted by the next start.
    long deadline = System.nanoTime() + parts.settings().stopGrace().toNanos();
    for (ActiveTurn loop : loops) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      ActiveTurns.awaitEnd(loop, Duration.ofNanos(left));
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }
}
