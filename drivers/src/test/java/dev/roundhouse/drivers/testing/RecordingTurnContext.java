package dev.roundhouse.drivers.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.ConversationEntry;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A hand-written fake of the runner's {@link TurnContext} for driver tests, whatever the driver: records every
 * event; answers permissions, questions and a lingering session's wait from what the test scripted; serves
 * hub tools from handlers the test gives; hands out an agent endpoint when given one; and stops like {@code
 * turn_stop} does.
 *
 * <ul>
 *   <li><b>Permissions</b>: the next scripted verdict ({@link #answer(PermissionVerdict...)}, {@link #allow},
 *       {@link #deny}); nothing scripted is a denial ({@code no answer}), as the real gate denies a
 *       non-answer. As the gate does, a denial is recorded here as a {@link TurnEvent.PermissionDenied}, not
 *       by the driver (not once the turn is stopped).
 *   <li><b>Questions</b> ({@link #ask}): the next scripted reply ({@link #reply}, {@link #noReply}); none is no
 *       answer.
 *   <li><b>Linger</b> ({@link #awaitNextMessage}): the next scripted message ({@link #thenMessages}, {@link
 *       #send}) or end ({@link #endLinger}); none is the end (the linger time ran out).
 *   <li>With {@link #holdUnanswered()} an unscripted permission or question waits for an answer or a stop, as
 *       a gate parked on a human does; with {@link #holdLinger()} an unscripted linger waits for {@link #send},
 *       {@link #endLinger} or a stop. {@link #awaitDriverWaiting} says when the driver is parked so.
 * </ul>
 *
 * <p>Thread-safe: one lock guards all state and is never held while the driver's stop actions run or while
 * an event is emitted as a denial; waits are on its condition, with deadlines, never sleeps.
 */
public final class RecordingTurnContext implements TurnContext {
  private final long turnId;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<TurnEvent> events = new ArrayList<>();
  private final List<PermissionRequest> permissionRequests = new ArrayList<>();
  private final List<String> questions = new ArrayList<>();
  private final List<String> questionsWithOptions = new ArrayList<>();
  private final Deque<PermissionVerdict> verdicts = new ArrayDeque<>();
  private final Deque<Optional<String>> replies = new ArrayDeque<>();
  private final Deque<Optional<String>> messages = new ArrayDeque<>();
  private final List<Runnable> stopActions = new ArrayList<>();
  private final List<OperationDescriptor> tools = new ArrayList<>();
  private final Map<String, Function<JsonNode, JsonNode>> handlers = new HashMap<>();
  private final List<String> toolCalls = new ArrayList<>();
  private final List<ConversationEntry> history = new ArrayList<>();
  private AgentEndpoint endpoint;
  private Thread driverThread;
  private boolean holdUnanswered;
  private boolean holdLinger;
  private boolean stopped;
  private int refusedAfterStop;
  private int stopActionsRegistered;
  private int waiting;
  private int awaited;

  public RecordingTurnContext(long turnId) {
    this(turnId, Clock.systemUTC());
  }

  public RecordingTurnContext(long turnId, Clock clock) {
    this.turnId = turnId;
    this.clock = clock;
  }

  // --- scripting the fake -------------------------------------------------------------------------

  /** Verdicts for the next permission requests, in order. */
  public RecordingTurnContext answer(PermissionVerdict... answers) {
    return change(() -> verdicts.addAll(List.of(answers)));
  }

  public RecordingTurnContext allow(String reason) {
    return answer(PermissionVerdict.allow(reason));
  }

  public RecordingTurnContext deny(String reason) {
    return answer(PermissionVerdict.deny(reason));
  }

  /** Replies to the next questions ({@link #ask}), in order. */
  public RecordingTurnContext reply(String... answers) {
    return change(() -> List.of(answers).forEach(answer -> replies.add(Optional.of(answer))));
  }

  /** The next question gets no answer. */
  public RecordingTurnContext noReply() {
    return change(() -> replies.add(Optional.empty()));
  }

  /** Messages a lingering session gets next, in order ({@link #awaitNextMessage}). */
  public RecordingTurnContext thenMessages(String... next) {
    return change(() -> List.of(next).forEach(message -> messages.add(Optional.of(message))));
  }

  /** Queues a message for a lingering session (from any thread, while the driver waits). */
  public RecordingTurnContext send(String message) {
    return thenMessages(message);
  }

  /** After the queued messages, {@link #awaitNextMessage()} returns empty: the linger time ran out. */
  public RecordingTurnContext endLinger() {
    return change(() -> messages.add(Optional.empty()));
  }

  /** Unscripted permissions and questions wait for an answer or a stop instead of failing at once. */
  public RecordingTurnContext holdUnanswered() {
    return change(() -> holdUnanswered = true);
  }

  /** An unscripted linger waits for {@link #send}, {@link #endLinger} or a stop instead of ending at once. */
  public RecordingTurnContext holdLinger() {
    return change(() -> holdLinger = true);
  }

  /** Offers a hub operation as a tool ({@link #tools()}), served by {@code handler}. */
  public RecordingTurnContext tool(OperationDescriptor descriptor, Function<JsonNode, JsonNode> handler) {
    return change(() -> {
      tools.add(descriptor);
      handlers.put(descriptor.name(), handler);
    });
  }

  /** Serves the hub operation {@code name} through {@link #callTool} without offering it as a tool. */
  public RecordingTurnContext operation(String name, Function<JsonNode, JsonNode> handler) {
    return change(() -> handlers.put(name, handler));
  }

  /** The task's earlier conversation, as {@link #history()} gives it. */
  public RecordingTurnContext history(List<ConversationEntry> entries) {
    return change(() -> history.addAll(entries));
  }

  public RecordingTurnContext endpoint(AgentEndpoint agentEndpoint) {
    return change(() -> endpoint = agentEndpoint);
  }

  /** The thread the driver runs on, interrupted by {@link #stop()} as the runner does. */
  public void driverThread(Thread thread) {
    change(() -> driverThread = thread);
  }

  /**
   * Stops the turn as {@code turn_stop} does: marks it stopped, wakes every wait, runs the stop actions on
   * this thread (outside the lock, once each), then interrupts the driver's thread if one was named.
   */
  public void stop() {
    List<Runnable> actions;
    Thread thread;
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      stopped = true;
      actions = List.copyOf(stopActions);
      stopActions.clear();
      thread = driverThread;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    actions.forEach(Runnable::run);
    if (thread != null) {
      thread.interrupt();
    }
  }

  // --- reading what happened ----------------------------------------------------------------------

  public List<TurnEvent> events() {
    return read(() -> List.copyOf(events));
  }

  public <T extends TurnEvent> List<T> events(Class<T> type) {
    return events().stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The events' types without text deltas: "turn.session turn.message turn.usage turn.result". */
  public String shape() {
    return shape(event -> !(event instanceof TurnEvent.TextDelta));
  }

  /** The events' types without text and tool-output deltas. */
  public String shapeWithoutDeltas() {
    return shape(event -> !(event instanceof TurnEvent.TextDelta) && !(event instanceof TurnEvent.ToolOutputDelta));
  }

  private String shape(Predicate<TurnEvent> shown) {
    return events().stream().filter(shown).map(TurnEvent::type).collect(Collectors.joining(" "));
  }

  /** The text deltas joined. */
  public String streamedText() {
    return events(TurnEvent.TextDelta.class).stream().map(TurnEvent.TextDelta::text).collect(Collectors.joining());
  }

  /** Every event as text, for "the key never appears" checks. */
  public String allText() {
    return events().stream().map(TurnEvent::toString).collect(Collectors.joining("\n"));
  }

  public List<PermissionRequest> permissionRequests() {
    return read(() -> List.copyOf(permissionRequests));
  }

  /** The questions asked. */
  public List<String> questions() {
    return read(() -> List.copyOf(questions));
  }

  /** The questions asked, each as "question [option, option]". */
  public List<String> questionsWithOptions() {
    return read(() -> List.copyOf(questionsWithOptions));
  }

  /** The hub tools called, each as "name input". */
  public List<String> toolCalls() {
    return read(() -> List.copyOf(toolCalls));
  }

  /** How many stop actions the driver registered. */
  public int stopActions() {
    return read(() -> stopActionsRegistered);
  }

  /** Waits until any event (one already seen included) matches, failing after {@code timeout}. */
  public TurnEvent awaitEvent(String what, Duration timeout, Predicate<TurnEvent> matching) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (true) {
        for (TurnEvent event : events) {
          if (matching.test(event)) {
            return event;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; events: " + events);
        }
        changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits for the next event of {@code type} after those this method returned or passed over before, failing
   * after {@code timeout}.
   */
  public <T extends TurnEvent> T await(Class<T> type, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (true) {
        while (awaited < events.size()) {
          TurnEvent event = events.get(awaited++);
          if (type.isInstance(event)) {
            return type.cast(event);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no " + type.getSimpleName() + " within " + timeout + "; events: " + events);
        }
        changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  /** How many events the driver emitted after the stop, each refused as the hub refuses them. */
  public int refusedAfterStop() {
    lock.lock();
    try {
      return refusedAfterStop;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the driver is parked on a held permission, question or linger. */
  public void awaitDriverWaiting(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (waiting == 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("timed out after " + timeout + " waiting for the driver to wait");
        }
        changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  // --- TurnContext ----------------------------------------------------------------------------------

  @Override
  public void emit(TurnEvent event) {
    lock.lock();
    try {
      if (stopped) {
        refusedAfterStop++;
        throw new TurnStoppedException(turnId);
      }
      events.add(event);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public PermissionVerdict requestPermission(PermissionRequest request) {
    PermissionVerdict verdict;
    lock.lock();
    try {
      permissionRequests.add(request);
      changed.signalAll();
      verdict = take(verdicts).orElseGet(() -> PermissionVerdict.deny(stopped ? "the turn was stopped" : "no answer"));
      if (verdict.allowed() || stopped) {
        return verdict;
      }
    } finally {
      lock.unlock();
    }
    emit(new TurnEvent.PermissionDenied(request.callId(), request.tool(), verdict.reason()));
    return verdict;
  }

  @Override
  public Optional<String> ask(String question, List<String> options) {
    lock.lock();
    try {
      questions.add(question);
      questionsWithOptions.add(question + " " + options);
      changed.signalAll();
      return take(replies).flatMap(answer -> answer);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<String> awaitNextMessage() {
    lock.lock();
    try {
      waiting++;
      changed.signalAll();
      try {
        while (holdLinger && messages.isEmpty() && !stopped) {
          changed.awaitUninterruptibly();
        }
      } finally {
        waiting--;
      }
      if (stopped) {
        return Optional.empty();
      }
      Optional<String> next = messages.poll();
      return next == null ? Optional.empty() : next;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isStopped() {
    return read(() -> stopped);
  }

  @Override
  public void onStop(Runnable action) {
    lock.lock();
    try {
      stopActionsRegistered++;
      if (!stopped) {
        stopActions.add(action);
        return;
      }
    } finally {
      lock.unlock();
    }
    action.run();
  }

  @Override
  public List<OperationDescriptor> tools() {
    return read(() -> List.copyOf(tools));
  }

  @Override
  public JsonNode callTool(String name, JsonNode input) {
    Function<JsonNode, JsonNode> handler = read(() -> {
      toolCalls.add(name + " " + input);
      return handlers.get(name);
    });
    if (handler == null) {
      throw new RoundhouseException.NotFound("no operation '" + name + "'");
    }
    return handler.apply(input);
  }

  @Override
  public Optional<AgentEndpoint> agentEndpoint() {
    return read(() -> Optional.ofNullable(endpoint));
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public List<ConversationEntry> history() {
    return read(() -> List.copyOf(history));
  }

  // --- internals ------------------------------------------------------------------------------------

  /** Takes the next scripted answer; holding, waits for one or a stop. Call with the lock held. */
  private <T> Optional<T> take(Deque<T> scripted) {
    if (!holdUnanswered || !scripted.isEmpty()) {
      return Optional.ofNullable(scripted.poll());
    }
    waiting++;
    changed.signalAll();
    try {
      while (scripted.isEmpty() && !stopped) {
        try {
          changed.await(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Optional.empty();
        }
      }
    } finally {
      waiting--;
    }
    return stopped ? Optional.empty() : Optional.ofNullable(scripted.poll());
  }

  private RecordingTurnContext change(Runnable action) {
    lock.lock();
    try {
      action.run();
      changed.signalAll();
      return this;
    } finally {
      lock.unlock();
    }
  }

  private <T> T read(Supplier<T> reading) {
    lock.lock();
    try {
      return reading.get();
    } finally {
      lock.unlock();
    }
  }
}
