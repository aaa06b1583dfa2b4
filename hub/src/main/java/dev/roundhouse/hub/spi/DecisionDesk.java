package dev.roundhouse.hub.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Decision;
import java.util.List;
import java.util.Optional;

/**
 * Decisions for extensions: one table and one answer operation for everything parked on a human, so a
 * calendar proposal is listed, pushed to editors and answered exactly like a tool permission. Thread-safe.
 */
public interface DecisionDesk {

  /** Opens a pending decision (with a {@code decision.opened} event) and returns it. */
  Decision open(Actor actor, String kind, Long project, Long task, String title, JsonNode request, List<String> options);

  Optional<Decision> get(long id);

  /**
   * Closes a pending decision without an answer ({@code decision.expired}, with {@code reason} as its message):
   * for a request that stopped waiting (a sign-in whose consent window ended). A no-op returning the decision
   * when it is already closed.
   *
   * @throws dev.roundhouse.hub.core.RoundhouseException.NotFound when there is no such decision
   */
  Decision expire(long id, String reason);

  /**
   * What happens when a decision of {@code kind} is answered. The handler runs before the answer is
   * recorded, outside any store write (it may do I/O, such as committing to a calendar); if it throws, the
   * answer is refused with its message and the decision stays pending, so a retry is possible and the
   * handler must be idempotent. One handler per kind.
   */
  void onAnswer(String kind, AnswerHandler handler);

  /** Acts on an answer; see {@link DecisionDesk#onAnswer}. */
  @FunctionalInterface
  interface AnswerHandler {
    void answering(Decision decision, String answer, String message, Actor actor);
  }
}
