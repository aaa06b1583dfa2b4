package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Decision;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Parks a turn on a decision (a permission, a question, settings drift) until a human answers or it expires
 * (stop, timeout, restart), keeping the turn's loop from being marked idle meanwhile.
 *
 * <p>Thread-safe: stateless beyond its parts; blocks the calling turn thread, with no lock held.
 */
final class DecisionParking {
  private final RunnerParts parts;

  DecisionParking(RunnerParts parts) {
    this.parts = parts;
  }

  /**
   * Opens a decision for a turn (with an optional companion event in the same write), parks the turn on it,
   * and returns it closed: answered, or expired by a stop, a timeout or a restart.
   */
  Decision park(ActiveTurn loop, long turnId, long projectId, String kind, String title, JsonNode details,
      List<String> options, Function<Decision, EventDraft> companion) {
    Actor agent = Actor.agent(loop.taskId);
    Decision decision = parts.store().write(w -> {
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
        return parts.decisions().expire(decision.id(), "the turn was stopped");
      }
      Duration timeout = parts.settings().decisionTimeout();
      return parts.decisions().await(decision.id(), timeout, "no answer within " + describe(timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return parts.decisions().expire(decision.id(), loop.stopped() ? "the turn was stopped" : "the hub shut down");
    } finally {
      loop.pendingDecisions.remove(decision.id());
      loop.parked.decrementAndGet();
      loop.lastActivity = parts.clock().instant();
    }
  }

  private static String describe(Duration duration) {
    return duration.toMinutes() >= 1 ? duration.toMinutes() + " min" : duration.toSeconds() + " s";
  }
}
