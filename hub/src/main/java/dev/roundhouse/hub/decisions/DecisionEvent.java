package dev.roundhouse.hub.decisions;

import dev.roundhouse.hub.events.HubEvent;
import dev.roundhouse.hub.model.Decision;

/** The events of a decision's life, each carrying the decision as it is then; see docs/events.md. Immutable. */
sealed interface DecisionEvent extends HubEvent {

  record Opened(Decision decision) implements DecisionEvent {
    @Override
    public String type() {
      return "decision.opened";
    }
  }

  record Answered(Decision decision) implements DecisionEvent {
    @Override
    public String type() {
      return "decision.answered";
    }
  }

  record Expired(Decision decision) implements DecisionEvent {
    @Override
    public String type() {
      return "decision.expired";
    }
  }
}
