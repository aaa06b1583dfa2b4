package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.store.Store;

/**
 * What a hub does about the turns a previous process left behind, before it runs any: every turn still marked
 * running or lingering is finalised as interrupted, and every pending decision expires (a restart is a
 * non-answer, so a permission is denied); queued messages stay queued.
 *
 * <p>Thread-safe: one store write.
 */
final class TurnRecovery {
  static final TurnOutcome INTERRUPTED = new TurnOutcome(TurnStatus.INTERRUPTED, "the hub stopped while the turn was running");

  private TurnRecovery() {}

  /** Returns how many turns were finalised. */
  static int recover(Store store) {
    return store.write(w -> {
      int count = 0;
      for (Turn turn : w.runner().activeTurns()) {
        TurnLoop.end(w, turn, INTERRUPTED, Actor.SCHEDULER);
        count++;
      }
      for (Decision decision : w.runner().decisions(true, null, null, Integer.MAX_VALUE)) {
        Decisions.expire(w, decision.id(), "the hub restarted before it was answered");
      }
      return count;
    });
  }
}
