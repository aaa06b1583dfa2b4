package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a hub does about the turns a previous process left behind, before it runs any.
 *
 * <p>On a database of its own (SQLite, under the home's lock): every turn still marked running or lingering
 * is finalised as interrupted, and every pending decision expires (a restart is a non-answer, so a permission
 * is denied); queued messages stay queued.
 *
 * <p>On a database shared by several workers (PostgreSQL), nothing is ended at the start: the other workers'
 * turns and decisions are theirs, and a dead worker's turns are ended once their lease has run out ({@link
 * #endOrphans}, by {@link TurnLeases}, which also runs their queued messages).
 *
 * <p>Thread-safe: one store write each.
 */
final class TurnRecovery {
  static final TurnOutcome INTERRUPTED = new TurnOutcome(TurnStatus.INTERRUPTED, "the hub stopped while the turn was running");
  static final TurnOutcome ORPHANED = new TurnOutcome(TurnStatus.INTERRUPTED,
      "the hub worker running the turn stopped renewing its lease (it died or lost the database)");

  private TurnRecovery() {}

  /** On a database of its own: finalises every turn left running; returns how many. */
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

  /**
   * Ends as interrupted every running or lingering turn whose lease ran out by {@code now} (or that was never
   * leased), taking it over for {@code worker} so the worker that lost it can tell, and expires its pending
   * decisions. Returns the turns ended. Workers sweeping at once end each turn once: the writes take turns.
   */
  static List<Turn> endOrphans(Store store, String worker, Instant now) {
    return store.write(w -> {
      List<Turn> ended = new ArrayList<>();
      for (Turn turn : w.runner().orphanedTurns(worker, now)) {
        w.runner().leaseTurn(turn.id(), worker, w.now());
        TurnLoop.end(w, turn, ORPHANED, Actor.SCHEDULER);
        expireDecisionsOf(w, turn);
        ended.add(turn);
      }
      return ended;
    });
  }

  private static void expireDecisionsOf(StoreWriter w, Turn turn) {
    for (Decision decision : w.runner().decisions(true, null, turn.taskId(), Integer.MAX_VALUE)) {
      if (decision.turnId() != null && decision.turnId() == turn.id()) {
        Decisions.expire(w, decision.id(), "the hub worker running its turn stopped before it was answered");
      }
    }
  }
}
