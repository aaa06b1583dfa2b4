package dev.roundhouse.workspace;

/**
 * Landing a task (task into base) and syncing it (base into task). Neither ever leaves a half-merged state:
 * a merge is computed without a checkout ({@code git merge-tree}), and a branch moves only by fast-forward to
 * the finished result. Thread-safe; serialised per repository.
 */
public interface Merges {

  MergeResult merge(TaskWorktree worktree);

  MergeResult sync(TaskWorktree worktree);
}
