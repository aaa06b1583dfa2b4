package dev.roundhouse.workspace;

/** What {@code ensure} had to do. */
public enum EnsureOutcome {
  /** A new branch and worktree were cut. */
  CREATED,
  /** The worktree was there and healthy. */
  REUSED,
  /** The worktree folder was missing or half-created and was re-added from the branch. */
  REPAIRED
}
