package dev.roundhouse.workspace;

/**
 * Per-task branches and linked worktrees. Thread-safe: calls on one repository are serialised, calls on
 * different repositories run in parallel.
 */
public interface Worktrees {

  /**
   * Returns the task's worktree, cutting it on first use and repairing it (from its branch) when its folder
   * was deleted or half-created.
   *
   * @throws NotARepositoryException the project is not in a git repository (the caller keeps today's behaviour)
   * @throws MissingBranchException  the recorded branch was deleted
   * @throws WorkspaceException      any other failure, as a sentence naming the repository
   */
  EnsureResult ensure(WorktreeRequest request);

  /** Whether the folder is inside a git work tree. */
  boolean isRepository(String path);

  /** Whether the base branch was rewritten since the worktree was cut (its recorded commit is gone from it). */
  BaseRewrite baseRewrite(TaskWorktree worktree);

  /**
   * Fetches {@code baseBranch} from the remote of the repository at {@code repository}, when it has one (at most once
   * per freshness window, under the repository's lock), so {@link #baseRewrite} sees a force-push upstream.
   *
   * @return the rewrite of the remote's branch the fetch showed, or null (none, no remote, or the fetch failed)
   * @throws WorkspaceException the repository cannot be read
   */
  RemoteRewrite fetchBase(String repository, String baseBranch);
}
