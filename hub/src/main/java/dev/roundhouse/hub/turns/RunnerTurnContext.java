package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.process.ProcessLauncher;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.PermissionRule;
import dev.roundhouse.hub.decisions.PermissionRules;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.ops.OperationDescriptor;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.ConversationEntry;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The runner's side of one turn: persists and publishes what the driver emits, runs the permission gate,
 * parks questions on decisions, and hands a lingering session its next message.
 *
 * <p>Thread-safe: the driver may call it from several threads; state lives in {@link ActiveTurn} and the
 * store.
 */
final class RunnerTurnContext implements TurnContext {
  private static final List<String> PERMISSION_OPTIONS = List.of("allow_once", "allow_always", "deny");

  private final RunnerParts parts;
  private final DecisionParking parking;
  private final ActiveTurns loops;
  private final ActiveTurn active;
  private final long turnId;
  private final Project project;
  private final AgentDriver driver;
  private final boolean unattended;
  private final Actor agent;
  /**
   * The operations this turn's agent may call: the agents' tools plus the task's owners' tools, the same set a
   * task-token MCP session lists, so an in-process driver and an agent CLI over MCP offer the model the same tools.
   */
  private final Set<String> agentTools;
  /** Opened on first ask, revoked when the turn ends. */
  private final AtomicReference<AgentEndpoint> endpoint = new AtomicReference<>();

  private final ProcessLauncher processes;

  RunnerTurnContext(
      RunnerParts parts, DecisionParking parking, ActiveTurns loops, ActiveTurn active, long turnId, Project project,
      AgentDriver driver, boolean unattended, Set<String> agentTools, ProcessLauncher processes) {
    this.parts = parts;
    this.processes = processes;
    this.parking = parking;
    this.loops = loops;
    this.active = active;
    this.turnId = turnId;
    this.project = project;
    this.driver = driver;
    this.unattended = unattended;
    this.agent = Actor.agent(active.taskId);
    this.agentTools = Set.copyOf(agentTools);
  }

  @Override
  public void emit(TurnEvent event) {
    if (active.stopped()) {
      throw new TurnStoppedException(turnId);
    }
    ObjectNode data = (ObjectNode) Json.tree(event);
    data.put("turn", turnId);
    boolean wasIdle = active.idle;
    active.lastActivity = parts.clock().instant();
    active.idle = false;
    if (event.isTransient() && !wasIdle) {
      parts.events().publishTransient(
          new Event(0, event.type(), parts.clock().instant(), agent, project.id(), active.taskId, data));
      return;
    }
    boolean session = event instanceof TurnEvent.SessionStarted started && started.sessionId() != null;
    if (!wasIdle && !session) {
      parts.store().append(new EventDraft(event.type(), agent, project.id(), active.taskId, data));
      return;
    }
    parts.store().write(w -> {
      if (wasIdle) {
        w.runner().setTurnIdle(turnId, false);
        w.append(new RunnerEvent.Active(turnId).draft(agent, project.id(), active.taskId));
      }
      if (event instanceof TurnEvent.SessionStarted started && started.sessionId() != null) {
        w.runner().setTurnSession(turnId, started.sessionId());
      }
      if (!event.isTransient()) {
        w.append(new EventDraft(event.type(), agent, project.id(), active.taskId, data));
      }
      return null;
    });
    if (event.isTransient()) {
      parts.events().publishTransient(
          new Event(0, event.type(), parts.clock().instant(), agent, project.id(), active.taskId, data));
    }
  }

  @Override
  public PermissionVerdict requestPermission(PermissionRequest request) {
    if (active.stopped()) {
      return PermissionVerdict.deny("the turn was stopped");
    }
    if (driver.capabilities().readOnlyTools().contains(request.tool()) || readOnlyOperation(request.tool())) {
      return PermissionVerdict.allow("read-only tool");
    }
    List<PermissionRule> rules = parts.store().read(r -> r.runner().rules(project.id()));
    for (PermissionRule rule : rules) {
      if (PermissionRules.allows(rule, request.tool(), request.command())) {
        return PermissionVerdict.allow(
            "allowed by the project's rule for " + rule.tool() + (rule.prefix().isEmpty() ? "" : " '" + rule.prefix() + "'"));
      }
    }
    if (unattended) {
      return denied(request, "no one is watching this unattended run");
    }
    ObjectNode details = Json.mapper().createObjectNode();
    details.put("turn", turnId);
    details.put("call_id", request.callId());
    details.put("tool", request.tool());
    details.set("input", request.input());
    details.put("description", request.description());
    if (request.command() != null) {
      details.put("command", request.command());
    }
    String title = request.tool() + ": " + (request.description() != null ? request.description()
        : request.command() != null ? request.command() : "use this tool");
    Decision closed = park(Decision.PERMISSION, title, details, PERMISSION_OPTIONS, decision -> {
      ObjectNode data = details.deepCopy();
      data.put("decision", decision.id());
      return new EventDraft("turn.permission_requested", agent, project.id(), active.taskId, data);
    });
    if (closed.status().equals(Decision.ANSWERED) && !closed.answer().equals("deny")) {
      return PermissionVerdict.allow("allowed by " + closed.closedBy()
          + (closed.answer().equals("allow_always") ? " (remembered for this project)" : ""));
    }
    String reason = closed.status().equals(Decision.EXPIRED)
        ? "no answer: " + closed.message()
        : "denied by " + closed.closedBy() + (closed.message() == null ? "" : ": " + closed.message());
    return denied(request, reason);
  }

  private PermissionVerdict denied(PermissionRequest request, String reason) {
    if (!active.stopped()) {
      emit(new TurnEvent.PermissionDenied(request.callId(), request.tool(), reason));
    }
    return PermissionVerdict.deny(reason);
  }

  /**
   * {@inheritDoc}
   *
   * <p>In an unattended turn the question fails the run ({@link UnattendedQuestions}): empty, and the turn is
   * stopped and ends {@code failed}.
   */
  @Override
  public Optional<String> ask(String question, List<String> options) {
    if (active.stopped()) {
      return Optional.empty();
    }
    if (unattended) {
      UnattendedQuestions.refuse(parts, loops, active, turnId, project.id(), question, options);
      return Optional.empty();
    }
    ObjectNode details = Json.mapper().createObjectNode();
    details.put("turn", turnId);
    details.put("question", question);
    Decision closed = park(Decision.QUESTION, question, details, options, decision -> null);
    return closed.status().equals(Decision.ANSWERED) ? Optional.of(closed.answer()) : Optional.empty();
  }

  private Decision park(
      String kind, String title, JsonNode details, List<String> options,
      Function<Decision, EventDraft> companion) {
    return parking.park(active, turnId, project.id(), kind, title, details, options, companion);
  }

  /**
   * {@inheritDoc}
   *
   * <p>An unattended turn never lingers: empty at once, so the turn completes.
   */
  @Override
  public Optional<String> awaitNextMessage() {
    if (active.stopped() || unattended) {
      return Optional.empty();
    }
    parts.store().write(w -> {
      w.runner().setTurnStatus(turnId, TurnStatus.LINGERING);
      w.append(new RunnerEvent.Lingering(turnId).draft(agent, project.id(), active.taskId));
      return null;
    });
    long deadline = System.nanoTime() + parts.settings().lingerTimeout().toNanos();
    try {
      while (!active.stopped()) {
        Optional<String> next = parts.store().write(w -> {
          Optional<QueuedMessage> head = w.runner().dequeue(active.taskId);
          head.ifPresent(message -> {
            w.runner().setTurnStatus(turnId, TurnStatus.RUNNING);
            w.append(new RunnerEvent.UserMessage(turnId, message.message()).draft(message.queuedBy(), project.id(), active.taskId));
          });
          return head.map(QueuedMessage::message);
        });
        if (next.isPresent()) {
          active.lastActivity = parts.clock().instant();
          return next;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        active.awaitWake(left); // signalled or timed out: either way, look at the queue again

      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Optional.empty();
  }

  @Override
  public boolean isStopped() {
    return active.stopped();
  }

  @Override
  public void onStop(Runnable action) {
    active.onStop(action);
  }

  @Override
  public List<OperationDescriptor> tools() {
    return parts.operations().list().stream().filter(op -> agentTools.contains(op.name())).toList();
  }

  @Override
  public JsonNode callTool(String name, JsonNode input) {
    if (!agentTools.contains(name)) {
      throw new RoundhouseException.NotFound("unknown_operation", "no tool named '" + name + "' is offered to agents");
    }
    return parts.operations().invoke(name, agent, input);
  }

  @Override
  public Optional<AgentEndpoint> agentEndpoint() {
    AgentEndpoint current = endpoint.get();
    if (current != null) {
      return Optional.of(current);
    }
    Optional<AgentEndpoint> opened = parts.agentEndpoints().get().open(active.taskId);
    if (opened.isEmpty()) {
      return opened;
    }
    if (endpoint.compareAndSet(null, opened.get())) {
      return opened;
    }
    parts.agentEndpoints().get().close(opened.get()); // another thread opened one first
    return Optional.of(endpoint.get());
  }

  /** Revokes this turn's endpoint token, if one was opened. */
  void closeEndpoint() {
    AgentEndpoint opened = endpoint.getAndSet(null);
    if (opened != null) {
      parts.agentEndpoints().get().close(opened);
    }
  }

  @Override
  public Clock clock() {
    return parts.clock();
  }

  @Override
  public List<ConversationEntry> history() {
    return parts.store().read(reader -> ConversationHistory.read(reader, active.taskId, turnId));
  }

  private boolean readOnlyOperation(String tool) {
    return agentTools.contains(tool)
        && parts.operations().describe(tool).map(op -> op.annotations().readOnly()).orElse(false);
  }


  @Override
  public ProcessLauncher processes() {
    return processes;
  }
}
