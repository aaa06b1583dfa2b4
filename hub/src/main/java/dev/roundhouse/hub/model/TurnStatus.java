package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a turn is in its life: two active states, then one of five ends. */
public enum TurnStatus {
  /** The agent is working. */
  RUNNING,
  /** The model is done and its session stays open for the next message. */
  LINGERING,
  /** The agent finished. */
  COMPLETED,
  /** The driver or the agent failed; the reason says how. */
  FAILED,
  /** Someone stopped it ({@code turn_stop}). */
  STOPPED,
  /** The hub stopped (or died) under it. */
  INTERRUPTED,
  /** Settings drift was declined before the agent started. */
  DECLINED;

  /** The wire and store name, such as {@code running}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Running or lingering: the task's one turn that a new message joins. */
  public boolean active() {
    return this == RUNNING || this == LINGERING;
  }

  /** Parses a stored name; an unknown one is a corrupt row, named. */
  public static TurnStatus parse(String text) {
    for (TurnStatus status : values()) {
      if (status.wireName().equals(text)) {
        return status;
      }
    }
    throw new IllegalStateException("unknown turn status '" + text + "' in the store");
  }

  @Override
  public String toString() {
    return wireName();
  }
}
