package dev.roundhouse.hub.decisions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.spi.DecisionDesk;
import java.util.Optional;

/**
 * The one approval mechanism. A decision is written (with a {@code decision.opened} event) in the write
 * that parks something on it; whoever waits on it {@link #await}s; {@code decision_answer} closes it
 * ({@code decision.answered}); anything that ends the wait without an answer — a timeout, a stop, a hub
 * restart — closes it as {@code expired} ({@code decision.expired}), which for a permission is a denial.
 *
 * <p>Thread-safe. Waiters are futures in a concurrent map; the store serialises every state change, so an
 * answer and an expiry racing each other resolve to exactly one of them.
 */
public final class Decisions implements DecisionDesk {
  private final Store store;
  private final ConcurrentHashMap<Long, CompletableFuture<Decision>> waiters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, AnswerHandler> handlers = new ConcurrentHashMap<>();

  public Decisions(Store store) {
    this.store = store;
  }

  @Override
  public Decision open(Actor actor, String kind, Long project, Long task, String title, JsonNode request, List<String> options) {
    return store.write(w -> open(w, kind, project, task, null, actor, title, request, options));
  }

  @Override
  public Optional<Decision> get(long id) {
    return store.read(r -> r.runner().decision(id));
  }

  @Override
  public void onAnswer(String kind, AnswerHandler handler) {
    if (handlers.putIfAbsent(kind, handler) != null) {
      throw new IllegalStateException("decisions of kind '" + kind + "' already have a handler");
    }
  }

  /** Opens a decision inside the caller's write, appending {@code decision.opened}. */
  public static Decision open(
      StoreWriter w, String kind, Long project, Long task, Long turn, Actor actor, String title, JsonNode request, List<String> options) {
    Decision decision = w.runner().insertDecision(kind, project, task, turn, title, request, options, w.now());
    w.append(new DecisionEvent.Opened(decision).draft(actor, project, task));
    return decision;
  }

  /**
   * Waits until the decision is closed, or until {@code timeout}, when it expires it with that reason.
   * Returns the closed decision: answered, or expired.
   */
  public Decision await(long id, Duration timeout, String timeoutReason) throws InterruptedException {
    CompletableFuture<Decision> waiter = waiters.computeIfAbsent(id, k -> new CompletableFuture<>());
    try {
      Decision current = store.read(r -> r.runner().decision(id)).orElseThrow(() -> notFound(id));
      if (!current.pending()) {
        return current;
      }
      try {
        return waiter.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        return expire(id, timeoutReason);
      } catch (ExecutionException e) {
        throw new IllegalStateException("decision waiter failed", e.getCause());
      }
    } finally {
      waiters.remove(id, waiter);
    }
  }

  /**
   * Answers a pending decision. The handler of its kind (an extension's) runs first, on this thread, which
   * must hold no lock.
   *
   * @param beforeClose runs inside the same write before the decision closes (to store a rule, say); it
   *     may throw to refuse the answer, leaving the decision pending
   * @throws IllegalStateException when the calling thread holds a {@linkplain Locks#tracked tracked} lock and
   *     the decision's kind has a handler
   */
  public Decision answer(Actor actor, long id, String answer, String message, Consumer<StoreWriter> beforeClose) {
    String chosen = answer == null ? "" : answer.strip();
    Decision current = store.read(r -> r.runner().decision(id)).orElseThrow(() -> notFound(id));
    check(current, chosen);
    AnswerHandler handler = handlers.get(current.kind());
    if (handler != null) {
      Locks.assertNoneHeld("the answer handler of '" + current.kind() + "' decisions");
      handler.answering(current, chosen, blankToNull(message), actor); // outside the write: it may do I/O
    }
    Decision closed = store.write(w -> {
      Decision decision = w.runner().decision(id).orElseThrow(() -> notFound(id));
      check(decision, chosen);
      beforeClose.accept(w);
      w.runner().closeDecision(id, Decision.ANSWERED, chosen, blankToNull(message), actor, w.now());
      Decision after = w.runner().decision(id).orElseThrow();
      w.append(new DecisionEvent.Answered(after).draft(actor, after.projectId(), after.taskId()));
      return after;
    });
    release(closed);
    return closed;
  }

  private static void check(Decision decision, String chosen) {
    long id = decision.id();
    if (!decision.pending()) {
      throw new RoundhouseException.Conflict(
          "decision " + id + " is already " + decision.status() + (decision.closedAt() == null ? "" : " (since " + decision.closedAt() + ")"));
    }
    if (decision.options().isEmpty()) {
      if (chosen.isEmpty()) {
        throw new RoundhouseException.InvalidInput("decision " + id + " asks a question: the answer must not be empty");
      }
    } else if (!decision.options().contains(chosen)) {
      throw new RoundhouseException.InvalidInput(
          "'" + chosen + "' is not an answer to decision " + id + "; choose one of " + String.join(", ", decision.options()));
    }
  }

  /** Closes a pending decision without an answer; a no-op (returning it) when it is already closed. */
  @Override
  public Decision expire(long id, String reason) {
    Decision closed = store.write(w -> expire(w, id, reason));
    release(closed);
    return closed;
  }

  /** As {@link #expire(long, String)} inside the caller's write; the caller then calls {@link #release}. */
  public static Decision expire(StoreWriter w, long id, String reason) {
    Decision decision = w.runner().decision(id).orElseThrow(() -> notFound(id));
    if (!decision.pending()) {
      return decision;
    }
    w.runner().closeDecision(id, Decision.EXPIRED, null, reason, null, w.now());
    Decision after = w.runner().decision(id).orElseThrow();
    w.append(new DecisionEvent.Expired(after).draft(Actor.SCHEDULER, after.projectId(), after.taskId()));
    return after;
  }

  /**
   * Wakes this worker's waiters on decisions other hub workers close (on a database several workers share,
   * the bus delivers their {@code decision.answered} and {@code decision.expired}): the closed decision is read
   * back on a virtual thread, since a bus observer must not block. A decision closed here is released
   * directly too; releasing twice is harmless.
   */
  public void follow(EventBus events) {
    events.observe(batch -> {
      for (Event event : batch) {
        if (!event.type().equals("decision.answered") && !event.type().equals("decision.expired")) {
          continue;
        }
        long id = event.data().path("decision").path("id").asLong();
        if (waiters.containsKey(id)) {
          Thread.ofVirtual().name("roundhouse-decision-" + id).start(() -> get(id).ifPresent(this::release));
        }
      }
    });
  }

  /** Wakes whoever waits on a decision that was closed in a write. */
  public void release(Decision closed) {
    CompletableFuture<Decision> waiter = waiters.get(closed.id());
    if (waiter != null && !closed.pending()) {
      waiter.complete(closed);
    }
  }

  private static RoundhouseException.NotFound notFound(long id) {
    return new RoundhouseException.NotFound("no decision " + id);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }
}
