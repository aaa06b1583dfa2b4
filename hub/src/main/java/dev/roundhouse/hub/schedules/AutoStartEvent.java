package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.events.HubEvent;
import java.util.List;

/** The events of deferred starts and dependents; payloads as in docs/events.md. Immutable. */
sealed interface AutoStartEvent extends HubEvent {

  /**
   * A task was due to start by itself and could not (no driver, an unknown driver, a turn already running); its
   * triggers were cleared, so it is not retried.
   *
   * @param triggers what made it due: {@code start_at}, {@code auto_start}, or both
   * @param reason why it did not start
   */
  record StartFailed(List<String> triggers, String reason) implements AutoStartEvent {
    @Override
    public String type() {
      return "task.start_failed";
    }
  }
}
