package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.model.RunOutcome;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.store.StoreReader;

/** TEMPORARY until the runner's classifier lands: a turn's outcome from its status alone. */
final class RunOutcomes {
  private RunOutcomes() {}

  static RunOutcome classify(StoreReader r, long turnId) {
    Turn turn = r.runner().turn(turnId).orElseThrow();
    return switch (turn.status()) {
      case RUNNING, LINGERING -> RunOutcome.RUNNING;
      case COMPLETED -> RunOutcome.DONE;
      case DECLINED -> RunOutcome.NEEDED_PERSON;
      default -> RunOutcome.FAILED;
    };
  }
}
