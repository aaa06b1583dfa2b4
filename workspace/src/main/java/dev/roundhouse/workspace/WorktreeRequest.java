package dev.roundhouse.workspace;

/**
 * Asks for a task's worktree. {@code branch} and {@code baseCommit} are what an earlier {@link EnsureResult}
 * recorded (null the first time): once a branch is recorded, a renamed task keeps its branch, and a recorded
 * branch that disappeared is an error, never silently recreated.
 *
 * @param project    the project's name (the worktree's parent folder)
 * @param repository the project's folder (inside a git work tree)
 * @param taskId     the task's id
 * @param title      the task's title (the branch's slug)
 * @param baseBranch the branch to cut from and merge into; null for the repository's default
 * @param branch     the branch recorded earlier, or null
 * @param baseCommit the base commit recorded when the worktree was cut, or null
 */
public record WorktreeRequest(String project, String repository, long taskId, String title, String baseBranch,
    String branch, String baseCommit) {

  public static WorktreeRequest of(String project, String repository, long taskId, String title) {
    return new WorktreeRequest(project, repository, taskId, title, null, null, null);
  }

  public WorktreeRequest withBaseBranch(String base) {
    return new WorktreeRequest(project, repository, taskId, title, base, branch, baseCommit);
  }

  /** The same request for a task whose worktree was ensured before. */
  public static WorktreeRequest of(TaskWorktree recorded, String title) {
    return new WorktreeRequest(recorded.project(), recorded.repository(), recorded.taskId(), title,
        recorded.baseBranch(), recorded.branch(), recorded.baseCommit());
  }
}
