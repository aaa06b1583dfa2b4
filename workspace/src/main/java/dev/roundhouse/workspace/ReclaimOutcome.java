package dev.roundhouse.workspace;

/** How a reclaim ended. */
public enum ReclaimOutcome {
  /** The worktree and the branch were removed. */
  RECLAIMED,
  /** Everything that was there is still there (see the reason). */
  KEPT,
  /** Neither the worktree nor the branch exists any more. */
  ALREADY_GONE
}
