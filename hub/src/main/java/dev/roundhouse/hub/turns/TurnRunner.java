package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Generation;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AgentEndpoints;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnPlacer;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;

/**
 * Runs agent turns, detached from whoever started them. Each task with work has one loop on a virtual
 * thread of its own: it runs a turn, then the next queued message, until the queue is empty or the turn
 * is stopped. The store is the arbiter of "is a turn running on this task": starting, queueing and
 * finishing are each one write, so a message is never lost between a finishing turn and a new send.
 *
 * <p>On construction it finalises every turn a previous process left running as {@code interrupted} and
 * expires every pending decision (a restart is a non-answer); queued messages stay queued.
 *
 * <p>Thread-safe. No lock is held while calling a driver or the store.
 */
public final class TurnRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);

  private final Store store;
  private final EventBus events;
  private final DriverRegistry drivers;
  private final Decisions decisions;
  private final OperationRegistry operations;
  private final RunnerSettings settings;
  private final Clock clock;
  private final SettingsDrift drift;
  private final ConcurrentHashMap<Long, ActiveTurn> active = new ConcurrentHashMap<>();
  private final ScheduledExecutorService watchdog;
  private volatile boolean closing;
  private volatile AgentEndpoints agentEndpoints = AgentEndpoints.NONE;
  private final List<TurnContributor> contributors = new CopyOnWriteArrayList<>();
  private final List<TurnPlacer> placers = new CopyOnWriteArrayList<>();

  /** A turn that was written as started and has yet to run. */
  record Launch(Turn turn, String message, String model, String permissionMode) {}

  public TurnRunner(
      Store store, EventBus events, DriverRegistry drivers, Decisions decisions, OperationRegistry operations,
      RunnerSettings settings, Clock clock) {
    this.store = store;
    this.events = events;
    this.drivers = drivers;
    this.decisions = decisions;
    this.operations = operations;
    this.settings = settings;
    this.clock = clock;
    this.drift = new SettingsDrift(this);
    recover();
    long every = Math.max(1, Math.min(settings.idleTimeout().toMillis() / 4, 30_000));
    this.watchdog = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().name("roundhouse-turn-watchdog").daemon(true).factory());
    watchdog.scheduleWithFixedDelay(this::checkIdleQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /** Registers the face that serves turns' agents their task-scoped MCP endpoint (the MCP face does). */
  public void useAgentEndpoints(AgentEndpoints endpoints) {
    this.agentEndpoints = java.util.Objects.requireNonNull(endpoints, "endpoints");
  }

  AgentEndpoints agentEndpoints() {
    return agentEndpoints;
  }

  /** Adds an extension's context and agent tools to the turns of the tasks it owns (extensions register at start). */
  public void contributeToTurns(TurnContributor contributor) {
    contributors.add(java.util.Objects.requireNonNull(contributor, "contributor"));
  }

  /** Adds a module's say in where turns run (extensions register at start); asked in registration order. */
  public void placeTurns(TurnPlacer placer) {
    placers.add(java.util.Objects.requireNonNull(placer, "placer"));
  }

  /**
   * Where {@code task}'s agent works, as every registered placer decides (it may create or repair a worktree,
   * so it may block); the project's own folder when none changes it.
   *
   * @throws RoundhouseException.NotFound when there is no such task
   */
  public TurnPlace placeOf(long task) {
    Setup setup = store.read(r -> {
      Task found = r.task(task).orElseThrow(() -> new RoundhouseException.NotFound("no task " + task));
      return new Setup(found, r.project(found.projectId()).orElseThrow(), List.of(), null);
    });
    return place(setup.project, setup.task);
  }

  private TurnPlace place(Project project, Task task) {
    TurnPlace place = TurnPlace.of(Path.of(project.path()).toAbsolutePath());
    for (TurnPlacer placer : placers) {
      place = java.util.Objects.requireNonNull(placer.place(project, task, place), "a turn placer returned no place");
    }
    return place;
  }

  /**
   * The operations {@code task}'s agent may call as tools: the agents' tools, plus those of every
   * contributor that owns the task. An in-process driver is offered these; an agent's MCP session lists them.
   *
   * @throws RoundhouseException.NotFound when there is no such task
   */
  public java.util.Set<String> agentTools(long task) {
    Setup setup = store.read(r -> {
      Task found = r.task(task).orElseThrow(() -> new RoundhouseException.NotFound("no task " + task));
      return new Setup(found, r.project(found.projectId()).orElseThrow(), List.of(), null);
    });
    return agentTools(owners(setup.project, setup.task));
  }

  private List<TurnContributor> owners(Project project, Task task) {
    return contributors.stream().filter(contributor -> contributor.owns(project, task)).toList();
  }

  private static java.util.Set<String> agentTools(List<TurnContributor> owners) {
    if (owners.isEmpty()) {
      return RunnerTurnContext.AGENT_OPERATIONS;
    }
    java.util.Set<String> tools = new java.util.TreeSet<>(RunnerTurnContext.AGENT_OPERATIONS);
    owners.forEach(owner -> tools.addAll(owner.agentTools()));
    return java.util.Set.copyOf(tools);
  }

  // ---- operations ---------------------------------------------------------------------------

  public TurnApi.TurnView start(Actor actor, TurnApi.TurnStart in) {
    Target target = target(in.task(), in.driver());
    boolean unattended = Boolean.TRUE.equals(in.unattended());
    Launch launch = store.write(w -> {
      w.runner().activeTurn(in.task()).ifPresent(turn -> {
        throw new RoundhouseException.Conflict(
            "task " + in.task() + " already has turn " + turn.id() + " " + turn.status()
                + "; send a message with turn_send, or stop it with turn_stop");
      });
      if (in.message() != null && !in.message().isBlank()) {
        w.runner().enqueue(in.task(), in.message(), target.driver, actor, w.now());
      }
      QueuedMessage head = w.runner().dequeue(in.task()).orElseThrow(() -> new RoundhouseException.InvalidInput(
          "task " + in.task() + " has no queued message to run; give a message"));
      return begin(w, actor, in.task(), target.project, head.message(), target.driver, unattended, in.model(), in.permissionMode());
    });
    launch(launch);
    return view(in.task(), launch.turn().id());
  }

  public TurnApi.SendResult send(Actor actor, TurnApi.TurnSend in) {
    if (in.message() == null || in.message().isBlank()) {
      throw new RoundhouseException.InvalidInput("message must not be empty");
    }
    Target target = target(in.task(), in.driver());
    Object outcome = store.write(w -> {
      w.runner().enqueue(in.task(), in.message(), target.driver, actor, w.now());
      Optional<Turn> running = w.runner().activeTurn(in.task());
      if (running.isPresent()) {
        ObjectNode data = Json.mapper().createObjectNode();
        data.put("turn", running.get().id());
        data.put("text", in.message());
        data.put("position", w.runner().queue(in.task()).size());
        w.append(new EventDraft("turn.queued", actor, target.project.id(), in.task(), data));
        return running.get();
      }
      QueuedMessage head = w.runner().dequeue(in.task()).orElseThrow();
      return begin(w, actor, in.task(), target.project, head.message(), target.driver, false, null, null);
    });
    if (outcome instanceof Launch launch) {
      launch(launch);
      return new TurnApi.SendResult("started", launch.turn(), queue(in.task()));
    }
    Turn running = (Turn) outcome;
    ActiveTurn loop = active.get(in.task());
    if (loop != null) {
      loop.wake();
    }
    return new TurnApi.SendResult(running.status().equals(Turn.LINGERING) ? "lingering" : "queued", running, queue(in.task()));
  }

  /** Stops the task's turn: the driver's stop actions run, its pending decisions expire (denied). */
  public TurnApi.TurnView stop(Actor actor, long task) {
    ActiveTurn loop = active.get(task);
    if (loop == null) {
      store.read(r -> r.task(task)).orElseThrow(() -> new RoundhouseException.NotFound("no task " + task));
      throw new RoundhouseException.Conflict("task " + task + " has no running turn to stop");
    }
    long turnId = loop.turnId;
    if (loop.markStopped()) {
      log.info("stopping turn {} of task {} ({})", turnId, task, actor);
      for (long decision : List.copyOf(loop.pendingDecisions)) {
        decisions.expire(decision, "the turn was stopped");
      }
      try {
        loop.runStopActions();
      } catch (RuntimeException e) {
        log.warn("a stop action of turn {} failed", turnId, e);
      }
      loop.wake();
      Thread thread = loop.thread;
      if (thread != null) {
        thread.interrupt();
      }
    }
    awaitLoopEnd(loop);
    if (active.get(task) == loop) {
      // The driver did not wind down in time: finalise the turn anyway; its later emits are refused.
      finish(loop, turnId, Turn.STOPPED, "stopped by " + actor + " (the driver did not end within " + settings.stopGrace().toSeconds() + " s)", false);
      active.remove(task, loop);
    }
    return view(task, turnId);
  }

  /**
   * Asks the user a question for the agent of a running turn ({@code ask_user}): opens a question decision,
   * parks that turn on it and returns it closed, answered or expired (stop, timeout, restart). Blocks.
   *
   * @throws RoundhouseException.Forbidden when {@code actor} is not an agent
   * @throws RoundhouseException.Conflict when no turn runs on the agent's task, or the run is unattended
   */
  public Decision ask(Actor actor, String question, List<String> options) {
    if (!actor.isAgent()) {
      throw new RoundhouseException.Forbidden(
          "forbidden", "only an agent in a running turn can ask the user (it parks that turn); " + actor + " is not one");
    }
    long task = actor.taskId();
    ActiveTurn loop = active.get(task);
    if (loop == null || loop.stopped()) {
      throw new RoundhouseException.Conflict("task " + task + " has no running turn to park on the question");
    }
    long turnId = loop.turnId;
    Turn turn = store.read(r -> r.runner().turn(turnId)).orElseThrow(() -> new RoundhouseException.NotFound("no turn " + turnId));
    if (turn.unattended()) {
      throw new RoundhouseException.Conflict("turn " + turnId + " runs unattended: no one is watching to answer; decide yourself");
    }
    long project = store.read(r -> r.task(task)).map(Task::projectId).orElseThrow(() -> new RoundhouseException.NotFound("no task " + task));
    ObjectNode details = Json.mapper().createObjectNode();
    details.put("turn", turnId);
    details.put("question", question);
    return park(loop, turnId, project, Decision.QUESTION, question, details, options, decision -> null);
  }

  public List<QueuedMessage> queue(long task) {
    return store.read(r -> r.runner().queue(task));
  }

  /** Marks turns idle that produced nothing for the idle time while not parked on a human. */
  public void checkIdle() {
    Instant now = clock.instant();
    for (ActiveTurn loop : active.values()) {
      if (loop.idle || loop.parked.get() > 0 || loop.stopped()) {
        continue;
      }
      if (Duration.between(loop.lastActivity, now).compareTo(settings.idleTimeout()) >= 0) {
        loop.idle = true;
        long turnId = loop.turnId;
        store.write(w -> {
          w.runner().setTurnIdle(turnId, true);
          ObjectNode data = Json.mapper().createObjectNode();
          data.put("turn", turnId);
          data.put("idle_since", loop.lastActivity.toString());
          w.append(new EventDraft("turn.idle", Actor.SCHEDULER, projectOf(w, loop.taskId), loop.taskId, data));
          return null;
        });
      }
    }
  }

  /** How many task loops are running; for tests and {@code doctor}. */
  public int runningLoops() {
    return active.size();
  }

  // ---- the loop ------------------------------------------------------------------------------

  private record Target(Project project, String driver) {}

  private Target target(long taskId, String requestedDriver) {
    return store.read(r -> {
      Task task = r.task(taskId).orElseThrow(() -> new RoundhouseException.NotFound("no task " + taskId));
      Project project = r.project(task.projectId()).orElseThrow();
      String driver = requestedDriver != null && !requestedDriver.isBlank() ? requestedDriver
          : task.agent() != null ? task.agent() : project.defaultAgent();
      if (driver == null) {
        throw new RoundhouseException.InvalidInput(
            "task " + taskId + " names no driver and project " + project.name() + " has no default agent; pass driver"
                + (drivers.list().isEmpty() ? "" : " (one of " + String.join(", ", drivers.list().stream().map(AgentDriver::id).toList()) + ")"));
      }
      drivers.get(driver);
      return new Target(project, driver);
    });
  }

  private Launch begin(StoreWriter w, Actor actor, long task, Project project, String message, String driver,
      boolean unattended, String model, String permissionMode) {
    Turn turn = w.runner().insertTurn(task, w.runner().generation(task), driver, unattended, actor, w.now());
    ObjectNode started = Json.mapper().createObjectNode();
    started.put("turn", turn.id());
    started.put("driver", driver);
    started.put("unattended", unattended);
    w.append(new EventDraft("turn.started", actor, project.id(), task, started));
    ObjectNode said = Json.mapper().createObjectNode();
    said.put("turn", turn.id());
    said.put("text", message);
    w.append(new EventDraft("turn.user_message", actor, project.id(), task, said));
    return new Launch(turn, message, model, permissionMode);
  }

  private void launch(Launch first) {
    long task = first.turn().taskId();
    ActiveTurn loop = new ActiveTurn(task, first.turn().id(), clock.instant());
    active.put(task, loop);
    loop.thread = Thread.ofVirtual().name("roundhouse-turn-" + task).start(() -> runLoop(loop, first));
  }

  private void runLoop(ActiveTurn loop, Launch first) {
    Launch current = first;
    try {
      while (current != null) {
        loop.turnId = current.turn().id();
        String[] outcome = runOne(loop, current);
        Thread.interrupted(); // a stop interrupts the driver, not the bookkeeping that follows
        current = finish(loop, current.turn().id(), outcome[0], outcome[1], true);
      }
    } catch (RuntimeException e) {
      log.error("turn loop of task {} failed", loop.taskId, e);
    } finally {
      active.remove(loop.taskId, loop);
    }
  }

  /** Runs one turn; returns its final status and reason. */
  private String[] runOne(ActiveTurn loop, Launch launch) {
    Turn turn = launch.turn();
    try {
      AgentDriver driver = drivers.get(turn.driver());
      Setup setup = store.read(r -> {
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
      String declined = drift.check(loop, turn, setup.project, driver);
      if (declined != null) {
        return new String[] {declined.startsWith("refused") ? Turn.FAILED : Turn.DECLINED, declined};
      }
      List<TurnContributor> owners = owners(setup.project, setup.task);
      TurnPlace place = place(setup.project, setup.task);
      recordPlace(turn, setup.project, place);
      TurnRequest request = new TurnRequest(
          turn.id(), turn.taskId(), setup.project.name(), place.workingDirectory(), launch.message(),
          contextText(setup.project, setup.task, owners), setup.summaries, setup.resume, launch.model(), launch.permissionMode(),
          turn.unattended(), place.environment());
      RunnerTurnContext context = new RunnerTurnContext(
          this, loop, turn.id(), setup.project, driver, turn.unattended(), agentTools(owners));
      try {
        driver.run(request, context);
      } finally {
        context.closeEndpoint();
      }
      return loop.stopped() ? new String[] {Turn.STOPPED, "stopped"} : new String[] {Turn.COMPLETED, null};
    } catch (TurnStoppedException e) {
      return new String[] {Turn.STOPPED, "stopped"};
    } catch (InterruptedException e) {
      return loop.stopped() ? new String[] {Turn.STOPPED, "stopped"} : new String[] {Turn.FAILED, "interrupted"};
    } catch (Exception e) {
      if (loop.stopped()) {
        return new String[] {Turn.STOPPED, "stopped"};
      }
      String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
      log.warn("turn {} of task {} failed: {}", turn.id(), turn.taskId(), message);
      try {
        store.write(w -> {
          ObjectNode data = (ObjectNode) Json.tree(new TurnEvent.Error(message));
          data.put("turn", turn.id());
          w.append(new EventDraft("turn.error", Actor.agent(turn.taskId()), projectOf(w, turn.taskId()), turn.taskId(), data));
          return null;
        });
      } catch (RuntimeException ignored) {
        // the task may be gone
      }
      return new String[] {Turn.FAILED, message};
    }
  }

  private record Setup(Task task, Project project, List<String> summaries, String resume) {}

  /** Says in the transcript where a turn runs when a module moved it or had something to say about it. */
  private void recordPlace(Turn turn, Project project, TurnPlace place) {
    if (place.notes().isEmpty() && place.workingDirectory().equals(Path.of(project.path()).toAbsolutePath())) {
      return;
    }
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("turn", turn.id());
    data.put("working_directory", place.workingDirectory().toString());
    place.notes().forEach(data.withArray("notes")::add);
    store.write(w -> w.append(new EventDraft("turn.placed", Actor.agent(turn.taskId()), project.id(), turn.taskId(), data)));
  }

  /**
   * Ends a turn (unless something else already did) and, when the loop goes on, takes the next queued
   * message and begins its turn in the same write; returns that launch, or null when the loop ends.
   */
  private Launch finish(ActiveTurn loop, long turnId, String endStatus, String endReason, boolean continueWithQueue) {
    boolean shutdown = closing && endStatus.equals(Turn.STOPPED);
    String status = shutdown ? Turn.INTERRUPTED : endStatus;
    String reason = shutdown ? "the hub shut down while the turn was running" : endReason;
    try {
      return store.write(w -> {
        Turn turn = w.runner().turn(turnId).orElse(null);
        if (turn == null) {
          return null; // the task was deleted
        }
        if (turn.active()) {
          w.runner().endTurn(turnId, status, reason, w.now());
          ObjectNode data = Json.mapper().createObjectNode();
          data.put("turn", turnId);
          data.put("status", status);
          if (reason != null) {
            data.put("reason", reason);
          }
          w.append(new EventDraft("turn.ended", Actor.agent(turn.taskId()), projectOf(w, turn.taskId()), turn.taskId(), data));
        }
        if (!continueWithQueue || loop.stopped() || closing) {
          return null;
        }
        Optional<QueuedMessage> next = w.runner().dequeue(turn.taskId());
        if (next.isEmpty()) {
          return null;
        }
        Project project = w.project(projectOf(w, turn.taskId())).orElseThrow();
        String driver = next.get().driver() != null ? next.get().driver() : turn.driver();
        return begin(w, next.get().queuedBy(), turn.taskId(), project, next.get().message(), driver, turn.unattended(), null, null);
      });
    } catch (RuntimeException e) {
      log.error("cannot finish turn {}", turnId, e);
      return null;
    }
  }

  private void awaitLoopEnd(ActiveTurn loop) {
    Thread thread = loop.thread;
    if (thread == null || thread == Thread.currentThread()) {
      return;
    }
    try {
      thread.join(settings.stopGrace());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void recover() {
    store.write(w -> {
      for (Turn turn : w.runner().activeTurns()) {
        w.runner().endTurn(turn.id(), Turn.INTERRUPTED, "the hub stopped while the turn was running", w.now());
        ObjectNode data = Json.mapper().createObjectNode();
        data.put("turn", turn.id());
        data.put("status", Turn.INTERRUPTED);
        data.put("reason", "the hub stopped while the turn was running");
        w.append(new EventDraft("turn.ended", Actor.SCHEDULER, projectOf(w, turn.taskId()), turn.taskId(), data));
      }
      for (Decision decision : w.runner().decisions(true, null, null, Integer.MAX_VALUE)) {
        Decisions.expire(w, decision.id(), "the hub restarted before it was answered");
      }
      return null;
    });
  }

  private static Long projectOf(StoreWriter w, long task) {
    return w.task(task).map(Task::projectId).orElse(null);
  }

  /** The project's context, the task's title and description, then what the task's owners add, in their order. */
  private static String contextText(Project project, Task task, List<TurnContributor> owners) {
    StringBuilder text = new StringBuilder();
    if (project.context() != null) {
      text.append(project.context()).append("\n\n");
    }
    text.append("Task #").append(task.id()).append(": ").append(task.title());
    if (task.description() != null) {
      text.append("\n\n").append(task.description());
    }
    for (TurnContributor owner : owners) {
      String added = owner.turnContext(project, task);
      if (added != null && !added.isBlank()) {
        text.append("\n\n").append(added.strip());
      }
    }
    return text.toString();
  }

  private TurnApi.TurnView view(long task, long turnId) {
    return store.read(r -> new TurnApi.TurnView(r.runner().turn(turnId).orElseThrow(), r.runner().queue(task)));
  }

  private void checkIdleQuietly() {
    try {
      checkIdle();
    } catch (RuntimeException e) {
      log.warn("idle check failed", e);
    }
  }

  // ---- for the context and helpers -----------------------------------------------------------

  /**
   * Opens a decision for a turn (with an optional companion event in the same write), parks the turn on
   * it, and returns it closed: answered, or expired by a stop, a timeout or a restart.
   */
  Decision park(
      ActiveTurn loop, long turnId, long projectId, String kind, String title, com.fasterxml.jackson.databind.JsonNode details,
      List<String> options, java.util.function.Function<Decision, EventDraft> companion) {
    Actor agent = Actor.agent(loop.taskId);
    Decision decision = store.write(w -> {
      Decision opened = Decisions.open(w, kind, projectId, loop.taskId, turnId, agent, title, details, options);
      EventDraft extra = companion.apply(opened);
      if (extra != null) {
        w.append(extra);
      }
      return opened;
    });
    loop.parked.incrementAndGet();
    loop.pendingDecisions.add(decision.id());
    try {
      if (loop.stopped()) {
        return decisions.expire(decision.id(), "the turn was stopped");
      }
      return decisions.await(
          decision.id(), settings.decisionTimeout(), "no answer within " + describe(settings.decisionTimeout()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return decisions.expire(decision.id(), loop.stopped() ? "the turn was stopped" : "the hub shut down");
    } finally {
      loop.pendingDecisions.remove(decision.id());
      loop.parked.decrementAndGet();
      loop.lastActivity = clock.instant();
    }
  }

  private static String describe(Duration duration) {
    return duration.toMinutes() >= 1 ? duration.toMinutes() + " min" : duration.toSeconds() + " s";
  }

  Store store() {
    return store;
  }

  EventBus events() {
    return events;
  }

  Decisions decisions() {
    return decisions;
  }

  OperationRegistry operations() {
    return operations;
  }

  RunnerSettings settings() {
    return settings;
  }

  Clock clock() {
    return clock;
  }

  /** Stops every running turn (on hub shutdown the next start finalises them as interrupted anyway). */
  @Override
  public void close() {
    closing = true;
    watchdog.shutdownNow();
    List<ActiveTurn> loops = List.copyOf(active.values());
    for (ActiveTurn loop : loops) {
      if (loop.markStopped()) {
        try {
          loop.runStopActions();
        } catch (RuntimeException e) {
          log.warn("a stop action of turn {} failed", loop.turnId, e);
        }
        loop.wake();
        Thread thread = loop.thread;
        if (thread != null) {
          thread.interrupt();
        }
      }
    }
    // Give the loops a moment to record how they ended; whatever is still running is finalised as
    // interrupted by the next start.
    long deadline = System.nanoTime() + settings.stopGrace().toNanos();
    for (ActiveTurn loop : loops) {
      Thread thread = loop.thread;
      long left = deadline - System.nanoTime();
      if (thread != null && left > 0) {
        try {
          thread.join(Duration.ofNanos(left));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
