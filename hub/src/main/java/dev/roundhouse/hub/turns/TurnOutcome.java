package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.model.TurnStatus;

/** How one turn ended, as the loop records it. Immutable. */
record TurnOutcome(TurnStatus status, String reason) {
  static final TurnOutcome COMPLETED = new TurnOutcome(TurnStatus.COMPLETED, null);
  static final TurnOutcome STOPPED = new TurnOutcome(TurnStatus.STOPPED, "stopped");

  TurnOutcome {
    if (status.active()) {
      throw new IllegalArgumentException("a turn does not end " + status);
    }
  }

  static TurnOutcome failed(String reason) {
    return new TurnOutcome(TurnStatus.FAILED, reason);
  }

  static TurnOutcome declined(String reason) {
    return new TurnOutcome(TurnStatus.DECLINED, reason);
  }
}
