package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.RoundhouseException;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.turns.PermissionRequest;
import dev.roundhouse.hub.turns.PermissionVerdict;
import dev.roundhouse.hub.turns.TurnContext;
import dev.roundhouse.hub.turns.TurnEvent;
import dev.roundhouse.hub.turns.TurnStoppedException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A hand-written fake of the runner's {@link TurnContext}: records every event, answers permission requests
 * from a scripted queue (a request with nothing scripted is denied, as the real gate denies a non-answer;
 * a denial is recorded as a {@code PermissionDenied}, as the real gate does),
 * records stop actions and runs them on {@link #stop()}, and serves hub tools from handlers the test gives.
 *
 * <p>Thread-safe.
 */
final class RecordingTurnContext implements TurnContext {
  private final long turnId;
  private final Clock clock;
  private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
  private final List<PermissionRequest> permissionRequests = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<PermissionVerdict> verdicts = new ConcurrentLinkedQueue<>();
  private final List<Runnable> stopActions = new CopyOnWriteArrayList<>();
  private final List<OperationDescriptor> tools = new CopyOnWriteArrayList<>();
  private final Map<String, Function<JsonNode, JsonNode>> handlers = new ConcurrentHashMap<>();
  private final List<String> toolCalls = new CopyOnWriteArrayList<>();
  private volatile Consumer<TurnEvent> onEmit = event -> {};
  private volatile boolean stopped;

  RecordingTurnContext(long turnId, Clock clock) {
    this.turnId = turnId;
    this.clock = clock;
  }

  /** Answers the next permission requests, in order. */
  RecordingTurnContext answer(PermissionVerdict... answers) {
    verdicts.addAll(List.of(answers));
    return this;
  }

  /** Offers a hub operation as a tool, served by {@code handler}. */
  RecordingTurnContext tool(OperationDescriptor descriptor, Function<JsonNode, JsonNode> handler) {
    tools.add(descriptor);
    handlers.put(descriptor.name(), handler);
    return this;
  }

  /** Runs {@code action} on every emitted event, after it is recorded (on the emitting thread). */
  RecordingTurnContext onEmit(Consumer<TurnEvent> action) {
    this.onEmit = action;
    return this;
  }

  /** Stops the turn as {@code turn_stop} would: marks it stopped and runs the stop actions, once each. */
  void stop() {
    stopped = true;
    for (Runnable action : stopActions) {
      action.run();
    }
  }

  List<TurnEvent> events() {
    return List.copyOf(events);
  }

  <T extends TurnEvent> List<T> events(Class<T> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The events' types, without text deltas: "turn.session turn.message turn.result". */
  String shape() {
    return events.stream().filter(event -> !(event instanceof TurnEvent.TextDelta)).map(TurnEvent::type).collect(Collectors.joining(" "));
  }

  List<PermissionRequest> permissionRequests() {
    return List.copyOf(permissionRequests);
  }

  List<String> toolCalls() {
    return List.copyOf(toolCalls);
  }

  int stopActions() {
    return stopActions.size();
  }

  /** Every text the events carry, for "the key never appears" checks. */
  String allText() {
    List<String> texts = new ArrayList<>();
    for (TurnEvent event : events) {
      texts.add(event.toString());
    }
    return String.join("\n", texts);
  }

  @Override
  public void emit(TurnEvent event) {
    if (stopped) {
      throw new TurnStoppedException(turnId);
    }
    events.add(event);
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
      // As the runner's gate does: a refusal is recorded by the gate, not by the driver.
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
    return Optional.empty();
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
    return List.copyOf(tools);
  }

  @Override
  public JsonNode callTool(String name, JsonNode input) {
    toolCalls.add(name + " " + input);
    Function<JsonNode, JsonNode> handler = handlers.get(name);
    if (handler == null) {
      throw new RoundhouseException.NotFound("no operation '" + name + "'");
    }
    return handler.apply(input);
  }

  @Override
  public java.util.Optional<dev.roundhouse.hub.turns.AgentEndpoint> agentEndpoint() {
    return java.util.Optional.empty();
  }

  @Override
  public Clock clock() {
    return clock;
  }
}
