package dev.roundhouse.workspace;

/** How a merge (task into base) or a sync (base into task) ended. */
public enum MergeOutcome {
  /** The target branch moved forward to the other tip. */
  FAST_FORWARD,
  /** A merge commit was made and the target moved to it. */
  MERGE_COMMIT,
  /** Nothing to do: the target already contains the other side. */
  UP_TO_DATE,
  /** The two sides conflict; nothing was changed. */
  CONFLICT,
  /** The merge was possible but applying it was not safe (see the message); nothing was changed. */
  REFUSED
}
