package dev.roundhouse.hub.retention;

import dev.roundhouse.hub.events.HubEvent;

/** The events the retention policy records; payloads as in docs/events.md. Immutable. */
sealed interface RetentionEvent extends HubEvent {

  /**
   * The task's events from {@code firstSeq} to {@code lastSeq} were removed ({@code events} of them, about
   * {@code bytes} stored), because it was finished and idle at least {@code days} days.
   */
  record Pruned(long events, long bytes, long firstSeq, long lastSeq, int days) implements RetentionEvent {
    @Override
    public String type() {
      return "task.pruned";
    }
  }
}
