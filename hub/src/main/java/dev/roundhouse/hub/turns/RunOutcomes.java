package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.model.RunOutcome;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.store.StoreReader;
import java.util.List;
import java.util.Set;

/**
 * Judges how a run ended from its turn, as a CI job ({@code roundhouse run}) and a schedule's history report
 * it. The rules, in order:
 *
 * <ol>
 *   <li>running or lingering: {@link RunOutcome#RUNNING};
 *   <li>the turn recorded a refused question ({@code turn.question_refused}) or a settings-drift refusal
 *       ({@code turn.drift_refused}), or ended {@code declined} (drift not adopted): {@link RunOutcome#NEEDED_PERSON};
 *   <li>stopped or interrupted (someone or something cut it off): {@link RunOutcome#FAILED};
 *   <li>any {@code turn.permission_denied} in the turn: {@link RunOutcome#DENIED};
 *   <li>completed: {@link RunOutcome#DONE}; failed: {@link RunOutcome#FAILED}.
 * </ol>
 *
 * <p>Call it inside a store read: {@code store.read(r -> RunOutcomes.classify(r, turnId))}. Thread-safe:
 * stateless.
 */
public final class RunOutcomes {
  static final String PERMISSION_DENIED = "turn.permission_denied";
  static final String QUESTION_REFUSED = "turn.question_refused";
  static final String DRIFT_REFUSED = "turn.drift_refused";
  /** At most this many events of each kind are read to judge a turn (and counted). */
  private static final int MAX_EVENTS = 1000;

  private RunOutcomes() {}

  /**
   * A turn's outcome, why, and what it was refused.
   *
   * @param turn the turn as stored
   * @param reason a sentence for a person: the turn's end reason, or the first denial; null for a clean run
   * @param deniedPermissions how many {@code turn.permission_denied} the turn recorded (at most 1000 counted)
   * @param refusedQuestions how many questions the unattended turn refused (0 or 1: the first fails the run)
   */
  public record Verdict(Turn turn, RunOutcome outcome, String reason, int deniedPermissions, int refusedQuestions) {}

  /**
   * How the run of turn {@code turnId} ended (or {@link RunOutcome#RUNNING}).
   *
   * @throws RoundhouseException.NotFound when there is no such turn
   */
  public static RunOutcome classify(StoreReader reader, long turnId) {
    return judge(reader, turnId).outcome();
  }

  /**
   * {@link #classify} with the reason and the counts behind it.
   *
   * @throws RoundhouseException.NotFound when there is no such turn
   */
  public static Verdict judge(StoreReader reader, long turnId) {
    Turn turn = reader.runner().turn(turnId).orElseThrow(() -> new RoundhouseException.NotFound("no turn " + turnId));
    if (turn.active()) {
      return new Verdict(turn, RunOutcome.RUNNING, "turn " + turn.id() + " is " + turn.status(), 0, 0);
    }
    List<Event> events = reader.runner().turnEvents(
        turn.taskId(), turn.id(), Set.of(PERMISSION_DENIED, QUESTION_REFUSED, DRIFT_REFUSED), MAX_EVENTS);
    List<Event> denials = events.stream().filter(e -> e.type().equals(PERMISSION_DENIED)).toList();
    int questions = (int) events.stream().filter(e -> e.type().equals(QUESTION_REFUSED)).count();
    boolean drift = events.stream().anyMatch(e -> e.type().equals(DRIFT_REFUSED));
    RunOutcome outcome;
    String reason = turn.endReason();
    if (questions > 0 || drift || turn.status() == TurnStatus.DECLINED) {
      outcome = RunOutcome.NEEDED_PERSON;
    } else if (turn.status() == TurnStatus.STOPPED || turn.status() == TurnStatus.INTERRUPTED) {
      outcome = RunOutcome.FAILED;
    } else if (!denials.isEmpty()) {
      outcome = RunOutcome.DENIED;
      var first = denials.getFirst().data();
      reason = (denials.size() == 1 ? "1 permission was denied" : denials.size() + " permissions were denied")
          + ", first " + first.path("tool").asText("a tool") + ": " + first.path("reason").asText("denied")
          + (turn.status() == TurnStatus.FAILED && turn.endReason() != null ? "; then the turn failed: " + turn.endReason() : "");
    } else {
      outcome = turn.status() == TurnStatus.COMPLETED ? RunOutcome.DONE : RunOutcome.FAILED;
    }
    return new Verdict(turn, outcome, reason, denials.size(), questions);
  }
}
