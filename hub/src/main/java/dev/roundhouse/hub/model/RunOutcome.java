package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How an unattended run (a schedule's firing, {@code roundhouse run}) ended, judged from its turn: what a CI job
 * and a schedule's history report. Immutable.
 */
public enum RunOutcome {
  /** The turn is still running. */
  RUNNING,
  /** The agent finished and nothing it needed was refused. */
  DONE,
  /** The driver or the agent failed, the turn was stopped, or the hub stopped under it. */
  FAILED,
  /** A permission that would have asked a person was denied (and recorded in the transcript). */
  DENIED,
  /** The run needed a person: the agent asked a question, or the agent's settings drifted. */
  NEEDED_PERSON;

  /** The wire and store name, such as {@code needed_person}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True once the run has ended. */
  public boolean ended() {
    return this != RUNNING;
  }

  @Override
  public String toString() {
    return wireName();
  }
}
