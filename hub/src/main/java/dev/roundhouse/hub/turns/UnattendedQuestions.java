package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Actor;
import java.util.List;

/**
 * The unattended rule for questions: an agent of an unattended turn that asks a question (through
 * {@code TurnContext.ask} or its {@code ask_user} tool) fails the run, since no one is there to answer.
 * {@link #refuse} records {@code turn.question_refused}, marks the turn failed with a reason naming the
 * question, and stops it (its driver's stop actions run, its thread is interrupted); the loop then ends the
 * turn {@code failed} instead of {@code stopped}.
 *
 * <p>Thread-safe: stateless; called on the turn's own thread or an operation's, with no lock held.
 */
final class UnattendedQuestions {
  private UnattendedQuestions() {}

  /**
   * Refuses {@code question} on {@code loop}'s turn {@code turnId} and stops the turn.
   *
   * @return the reason the turn fails with
   */
  static String refuse(
      RunnerParts parts, ActiveTurns active, ActiveTurn loop, long turnId, Long project, String question, List<String> options) {
    String reason = "unattended run: the agent asked a question no one is there to answer: \"" + question + "\"";
    // Recorded before the stop: the stop interrupts the turn's thread, which may be this one.
    parts.store().append(
        new RunnerEvent.QuestionRefused(turnId, question, options).draft(Actor.agent(loop.taskId), project, loop.taskId));
    loop.fail(reason);
    active.stop(loop, "the unattended run asked a question");
    return reason;
  }
}
