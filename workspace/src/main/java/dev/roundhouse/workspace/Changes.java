package dev.roundhouse.workspace;

/**
 * Read-only views of a task's work, through JGit. Thread-safe; takes no repository lock.
 */
public interface Changes {

  WorktreeStatus status(TaskWorktree worktree);

  /** The task's diff against its merge-base with the base, uncommitted work included and marked. */
  TaskDiff diff(TaskWorktree worktree, boolean withHunks);

  TaskCommits commits(TaskWorktree worktree);

  /** The merge-base of the task branch and its base branch. */
  String mergeBase(TaskWorktree worktree);
}
