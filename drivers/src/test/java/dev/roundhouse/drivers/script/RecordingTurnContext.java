package dev.roundhouse.drivers.script;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.RoundhouseException;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.turns.PermissionRequest;
import dev.roundhouse.hub.turns.PermissionVerdict;
import dev.roundhouse.hub.turns.TurnContext;
import dev.roundhouse.hub.turns.TurnEvent;
import dev.roundhouse.hub.turns.TurnStoppedException;
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

/**
 * A hand-written {@link TurnContext} for driver tests: records every event, answers permissions and
 * questions from scripted lists, hands out queued linger messages, and can be stopped like a real turn.
 *
 * <p>As the hub's gate does, a denied permission is recorded as a {@link TurnEvent.PermissionDenied}
 * event here, not by the driver. Permissions and questions with no scripted answer are denied or unanswered at once, unless {@link
 * #holdUnanswered()} makes them wait (until an answer is scripted or the turn stops), as a gate parked on
 * a human would. Likewise {@link #awaitNextMessage()} waits for {@link #send} or {@link #endLinger()}.
 *
 * <p>Thread-safe: one lock guards all state; stop actions run outside it.
 */
final class RecordingTurnContext implements TurnContext {
  private final long turnId;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<TurnEvent> events = new ArrayList<>();
  private final List<PermissionRequest> permissionRequests = new ArrayList<>();
  private final List<String> questions = new ArrayList<>();
  private final Deque<PermissionVerdict> verdicts = new ArrayDeque<>();
  private final Deque<Optional<String>> answers = new ArrayDeque<>();
  private final Deque<Optional<String>> messages = new ArrayDeque<>();
  private final List<Runnable> stopActions = new ArrayList<>();
  private final Map<String, Function<JsonNode, JsonNode>> operations = new HashMap<>();
  private boolean holdUnanswered;
  private boolean stopped;
  private int waiting;

  RecordingTurnContext(long turnId) {
    this.turnId = turnId;
  }

  // --- scripting the fake -------------------------------------------------------------------------

  RecordingTurnContext allow(String reason) {
    return verdict(PermissionVerdict.allow(reason));
  }

  RecordingTurnContext deny(String reason) {
    return verdict(PermissionVerdict.deny(reason));
  }

  RecordingTurnContext verdict(PermissionVerdict verdict) {
    return change(() -> verdicts.add(verdict));
  }

  RecordingTurnContext answer(String answer) {
    return change(() -> answers.add(Optional.of(answer)));
  }

  RecordingTurnContext noAnswer() {
    return change(() -> answers.add(Optional.empty()));
  }

  /** Queues a message for a lingering session. */
  RecordingTurnContext send(String message) {
    return change(() -> messages.add(Optional.of(message)));
  }

  /** After the queued messages, {@link #awaitNextMessage()} returns empty (the linger time ran out). */
  RecordingTurnContext endLinger() {
    return change(() -> messages.add(Optional.empty()));
  }

  RecordingTurnContext operation(String name, Function<JsonNode, JsonNode> handler) {
    return change(() -> operations.put(name, handler));
  }

  /** Unscripted permissions and questions wait for an answer or a stop instead of failing at once. */
  RecordingTurnContext holdUnanswered() {
    return change(() -> holdUnanswered = true);
  }

  /** Stops the turn as {@code turn_stop} would: runs the stop actions on this thread, outside the lock. */
  void stop() {
    List<Runnable> actions;
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      stopped = true;
      actions = List.copyOf(stopActions);
      stopActions.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    actions.forEach(Runnable::run);
  }

  // --- reading what happened ----------------------------------------------------------------------

  List<TurnEvent> events() {
    return read(() -> List.copyOf(events));
  }

  <T extends TurnEvent> List<T> events(Class<T> type) {
    return events().stream().filter(type::isInstance).map(type::cast).toList();
  }

  List<PermissionRequest> permissionRequests() {
    return read(() -> List.copyOf(permissionRequests));
  }

  List<String> questions() {
    return read(() -> List.copyOf(questions));
  }

  /** Waits until an event matches, failing after {@code timeout}. */
  TurnEvent awaitEvent(String what, Duration timeout, Predicate<TurnEvent> matching) throws InterruptedException {
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

  /** Waits until the driver is blocked in a permission, question or linger wait. */
  void awaitDriverWaiting(Duration timeout) throws InterruptedException {
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
        throw new TurnStoppedException(turnId);
      }
      events.add(event);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Like the hub's gate, records a denial as {@link TurnEvent.PermissionDenied} (unless stopped). */
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
      changed.signalAll();
      return take(answers).flatMap(answer -> answer);
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
        while (messages.isEmpty() && !stopped) {
          changed.awaitUninterruptibly();
        }
      } finally {
        waiting--;
      }
      return stopped ? Optional.empty() : messages.poll();
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
    return List.of();
  }

  @Override
  public JsonNode callTool(String name, JsonNode input) {
    Function<JsonNode, JsonNode> handler = read(() -> operations.get(name));
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
    return Clock.systemUTC();
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

  private <T> T read(Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
    } finally {
      lock.unlock();
    }
  }
}
