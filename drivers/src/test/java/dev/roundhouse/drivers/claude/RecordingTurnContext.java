package dev.roundhouse.drivers.claude;

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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A hand-written fake of the runner's {@link TurnContext}: records every event; answers permission requests
 * from a scripted queue (nothing scripted is a denial, and a denial is recorded as a {@code
 * PermissionDenied}, as the real gate does); hands out scripted next messages for linger; stops like
 * {@code turn_stop} (marks the turn stopped, runs the stop actions, interrupts the driver's thread).
 *
 * <p>Thread-safe.
 */
final class RecordingTurnContext implements TurnContext {
  private final long turnId;
  private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
  private final List<PermissionRequest> permissionRequests = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<PermissionVerdict> verdicts = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> nextMessages = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> replies = new ConcurrentLinkedQueue<>();
  private final List<String> questions = new CopyOnWriteArrayList<>();
  private final List<Runnable> stopActions = new CopyOnWriteArrayList<>();
  private volatile AgentEndpoint endpoint;
  private volatile Thread driverThread;
  private volatile boolean stopped;

  RecordingTurnContext(long turnId) {
    this.turnId = turnId;
  }

  RecordingTurnContext answer(PermissionVerdict... answers) {
    verdicts.addAll(List.of(answers));
    return this;
  }

  /** Answers to the next questions ({@link #ask}), in order; then there is no answer. */
  RecordingTurnContext reply(String... answers) {
    replies.addAll(List.of(answers));
    return this;
  }

  /** The questions asked, as "question [option, option]". */
  List<String> questions() {
    return List.copyOf(questions);
  }

  /** Messages {@link #awaitNextMessage} hands out, in order; then it returns empty. */
  RecordingTurnContext thenSay(String... messages) {
    nextMessages.addAll(List.of(messages));
    return this;
  }

  RecordingTurnContext endpoint(AgentEndpoint agentEndpoint) {
    this.endpoint = agentEndpoint;
    return this;
  }

  /** The thread the driver runs on, interrupted by {@link #stop()} as the runner does. */
  void driverThread(Thread thread) {
    this.driverThread = thread;
  }

  /** As {@code turn_stop}: marks the turn stopped, runs the stop actions, interrupts the driver's thread. */
  void stop() {
    stopped = true;
    for (Runnable action : stopActions) {
      action.run();
    }
    Thread thread = driverThread;
    if (thread != null) {
      thread.interrupt();
    }
  }

  List<TurnEvent> events() {
    return List.copyOf(events);
  }

  <T extends TurnEvent> List<T> events(Class<T> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The events' types without text deltas: "turn.session turn.message turn.usage turn.result". */
  String shape() {
    return events.stream().filter(event -> !(event instanceof TurnEvent.TextDelta)).map(TurnEvent::type).collect(Collectors.joining(" "));
  }

  /** The text deltas joined. */
  String streamedText() {
    return events(TurnEvent.TextDelta.class).stream().map(TurnEvent.TextDelta::text).collect(Collectors.joining());
  }

  List<PermissionRequest> permissionRequests() {
    return List.copyOf(permissionRequests);
  }

  /** Waits (polling, with a deadline) until an event matches. */
  TurnEvent await(String what, Duration timeout, Predicate<TurnEvent> match) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (TurnEvent event : events) {
        if (match.test(event)) {
          return event;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; saw " + shape());
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public void emit(TurnEvent event) {
    if (stopped) {
      throw new TurnStoppedException(turnId);
    }
    events.add(event);
  }

  @Override
  public PermissionVerdict requestPermission(PermissionRequest request) {
    permissionRequests.add(request);
    if (stopped) {
      return PermissionVerdict.deny("the turn was stopped");
    }
    PermissionVerdict verdict = verdicts.poll();
    if (verdict == null) {
      verdict = PermissionVerdict.deny("no answer");
    }
    if (!verdict.allowed()) {
      emit(new TurnEvent.PermissionDenied(request.callId(), request.tool(), verdict.reason()));
    }
    return verdict;
  }

  @Override
  public Optional<String> ask(String question, List<String> options) {
    questions.add(question + " " + options);
    return stopped ? Optional.empty() : Optional.ofNullable(replies.poll());
  }

  @Override
  public Optional<String> awaitNextMessage() {
    return stopped ? Optional.empty() : Optional.ofNullable(nextMessages.poll());
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
    throw new UnsupportedOperationException("the Claude driver calls hub tools over MCP");
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
