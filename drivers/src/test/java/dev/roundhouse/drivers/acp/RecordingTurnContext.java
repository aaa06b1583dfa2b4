package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.turns.AgentEndpoint;
import dev.roundhouse.hub.turns.PermissionRequest;
import dev.roundhouse.hub.turns.PermissionVerdict;
import dev.roundhouse.hub.turns.TurnContext;
import dev.roundhouse.hub.turns.TurnEvent;
import dev.roundhouse.hub.turns.TurnStoppedException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A hand-written fake of the runner's {@link TurnContext}: records every event, answers permission requests
 * from a scripted queue (nothing scripted: denied, and the denial recorded, as the real gate does), hands
 * out scripted next messages for linger, and runs the stop actions on {@link #stop()}.
 *
 * <p>Thread-safe.
 */
final class RecordingTurnContext implements TurnContext {
  private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
  private final List<PermissionRequest> permissionRequests = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<PermissionVerdict> verdicts = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> nextMessages = new ConcurrentLinkedQueue<>();
  private final List<Runnable> stopActions = new CopyOnWriteArrayList<>();
  private volatile AgentEndpoint endpoint;
  private volatile java.util.concurrent.CountDownLatch lingerUntil;
  private volatile boolean stopped;

  RecordingTurnContext answer(PermissionVerdict... answers) {
    verdicts.addAll(List.of(answers));
    return this;
  }

  RecordingTurnContext thenMessages(String... messages) {
    nextMessages.addAll(List.of(messages));
    return this;
  }

  /** When no message is scripted, {@link #awaitNextMessage} lingers until {@code release} opens. */
  RecordingTurnContext lingerUntil(java.util.concurrent.CountDownLatch release) {
    this.lingerUntil = release;
    return this;
  }

  RecordingTurnContext endpoint(AgentEndpoint hub) {
    this.endpoint = hub;
    return this;
  }

  /** Opens once the driver waits for a next message that was not scripted. */
  final java.util.concurrent.CountDownLatch lingering = new java.util.concurrent.CountDownLatch(1);

  void stop() {
    stopped = true;
    stopActions.forEach(Runnable::run);
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

  @Override
  public void emit(TurnEvent event) {
    if (stopped) {
      throw new TurnStoppedException(0);
    }
    events.add(event);
  }

  @Override
  public PermissionVerdict requestPermission(PermissionRequest request) {
    permissionRequests.add(request);
    PermissionVerdict verdict = stopped ? PermissionVerdict.deny("the turn was stopped") : verdicts.poll();
    if (verdict == null) {
      verdict = PermissionVerdict.deny("no answer");
    }
    if (!verdict.allowed() && !stopped) {
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
    String next = stopped ? null : nextMessages.poll();
    java.util.concurrent.CountDownLatch release = lingerUntil;
    if (next == null && release != null) {
      lingering.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return Optional.ofNullable(next);
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
    throw new UnsupportedOperationException("the ACP driver gives the agent the hub's tools over MCP");
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
