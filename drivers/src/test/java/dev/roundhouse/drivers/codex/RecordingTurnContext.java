package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.turns.AgentEndpoint;
import dev.roundhouse.hub.turns.PermissionRequest;
import dev.roundhouse.hub.turns.PermissionVerdict;
import dev.roundhouse.hub.turns.TurnContext;
import dev.roundhouse.hub.turns.TurnEvent;
import dev.roundhouse.hub.turns.TurnStoppedException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A hand-written fake of the runner's {@link TurnContext}: records every event; answers permission requests
 * from a scripted queue (nothing scripted is a denial, as the real gate denies a non-answer, and a denial
 * is recorded as a {@code PermissionDenied}, as the gate does); hands out scripted next messages for a
 * lingering session (none: the session ends); runs stop actions on {@link #stop()}; and offers an agent
 * endpoint when given one.
 *
 * <p>Thread-safe.
 */
final class RecordingTurnContext implements TurnContext {
  private final long turnId;
  private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
  private final List<PermissionRequest> permissionRequests = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<PermissionVerdict> verdicts = new ConcurrentLinkedQueue<>();
  private final BlockingQueue<Optional<String>> nextMessages = new LinkedBlockingQueue<>();
  private final List<Runnable> stopActions = new CopyOnWriteArrayList<>();
  private final BlockingQueue<TurnEvent> emitted = new LinkedBlockingQueue<>();
  private volatile Consumer<TurnEvent> onEmit = event -> {};
  private volatile AgentEndpoint endpoint;
  private volatile boolean stopped;
  private volatile boolean lingering;

  RecordingTurnContext(long turnId) {
    this.turnId = turnId;
  }

  RecordingTurnContext answer(PermissionVerdict... answers) {
    verdicts.addAll(List.of(answers));
    return this;
  }

  /** Messages a lingering session gets next, in order; after them the session ends. */
  RecordingTurnContext thenMessages(String... messages) {
    for (String message : messages) {
      nextMessages.add(Optional.of(message));
    }
    nextMessages.add(Optional.empty());
    return this;
  }

  RecordingTurnContext endpoint(AgentEndpoint agentEndpoint) {
    this.endpoint = agentEndpoint;
    return this;
  }

  RecordingTurnContext onEmit(Consumer<TurnEvent> action) {
    this.onEmit = action;
    return this;
  }

  /** Stops the turn as {@code turn_stop} does: marks it stopped and runs the stop actions, once each. */
  void stop() {
    stopped = true;
    nextMessages.add(Optional.empty());
    for (Runnable action : stopActions) {
      action.run();
    }
  }

  /** Waits for the next emitted event of {@code type}, failing after {@code timeout}. */
  <T extends TurnEvent> T await(Class<T> type, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      TurnEvent event = left > 0 ? emitted.poll(left, TimeUnit.NANOSECONDS) : null;
      if (event == null) {
        throw new AssertionError("no " + type.getSimpleName() + " within " + timeout + "; saw " + shape());
      }
      if (type.isInstance(event)) {
        return type.cast(event);
      }
    }
  }

  List<TurnEvent> events() {
    return List.copyOf(events);
  }

  <T extends TurnEvent> List<T> events(Class<T> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The events' types, without text and output deltas: "turn.session turn.message turn.result". */
  String shape() {
    return events.stream()
        .filter(event -> !(event instanceof TurnEvent.TextDelta) && !(event instanceof TurnEvent.ToolOutputDelta))
        .map(TurnEvent::type).collect(Collectors.joining(" "));
  }

  String text() {
    return events(TurnEvent.TextDelta.class).stream().map(TurnEvent.TextDelta::text).collect(Collectors.joining());
  }

  List<PermissionRequest> permissionRequests() {
    return List.copyOf(permissionRequests);
  }

  boolean lingered() {
    return lingering;
  }

  @Override
  public void emit(TurnEvent event) {
    if (stopped) {
      throw new TurnStoppedException(turnId);
    }
    events.add(event);
    emitted.add(event);
    onEmit.accept(event);
  }

  @Override
  public PermissionVerdict requestPermission(PermissionRequest request) {
    permissionRequests.add(request);
    if (stopped) {
      return PermissionVerdict.deny("denied: the turn was stopped");
    }
    PermissionVerdict verdict = verdicts.poll();
    if (verdict == null) {
      verdict = PermissionVerdict.deny("denied: no answer");
    }
    if (!verdict.allowed()) {
      emit(new TurnEvent.PermissionDenied(request.callId(), request.tool(), verdict.reason()));
    }
    return verdict;
  }

  @Override
  public Optional<String> ask(String question, List<String> options) {
    return Optional.empty();
  }

  @Override
  public Optional<String> awaitNextMessage() {
    lingering = true;
    if (stopped) {
      return Optional.empty();
    }
    Optional<String> next = nextMessages.poll();
    return next == null ? Optional.empty() : next;
  }

  @Override
  public boolean isStopped() {
    return stopped;
  }

  @Override
  public void onStop(Runnable action) {
    stopActions.add(action);
    if (stopped) {
      action.run();
    }
  }

  @Override
  public List<OperationDescriptor> tools() {
    return List.of();
  }

  @Override
  public JsonNode callTool(String name, JsonNode input) {
    throw new UnsupportedOperationException("the codex driver calls hub tools through MCP");
  }

  @Override
  public Optional<AgentEndpoint> agentEndpoint() {
    return Optional.ofNullable(endpoint);
  }

  @Override
  public Clock clock() {
    return Clock.systemUTC();
  }
}
