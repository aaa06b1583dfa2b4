package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.spi.TaskStatusGuard;
import dev.roundhouse.workspace.PullRequestState;
import dev.roundhouse.workspace.Stranded;
import java.util.List;
import java.util.Optional;
import java.util.Objects;

/**
 * Refuses an agent's move of a task to done while the task's work is stranded: uncommitted files, or commits
 * that neither the base nor an open or merged pull request covers (the engine's {@code stranded}, which counts
 * anything it cannot read as stranded). People may still mark it done; a task without a workspace has nothing
 * to strand.
 *
 * <p>Thread-safe (stateless); called on the caller's thread outside any store write.
 */
final class StrandedWorkGuard implements TaskStatusGuard {
  private final TaskWorkspaces workspaces;

  StrandedWorkGuard(TaskWorkspaces workspaces) {
    this.workspaces = workspaces;
  }

  @Override
  public void check(Actor actor, Project project, Task task, TaskStatus to) {
    if (!actor.isAgent() || to != TaskStatus.DONE) {
      return;
    }
    Optional<Stored.TaskRecord> recorded = workspaces.recorded(task.id());
    if (recorded.isEmpty()) {
      return;
    }
    Stranded stranded = workspaces.engine().cleanup().stranded(recorded.get().worktree(), covered(task.id()));
    if (stranded.stranded()) {
      throw new RoundhouseException.Conflict("task " + task.id() + " cannot be marked done by an agent while its work"
          + " is stranded: " + stranded.message() + ". Commit it and land it (task_merge, create_pr), or ask the user"
          + " to mark the task done");
    }
  }

  /** Heads of the task's open and merged pull requests: their commits are covered. */
  private List<String> covered(long task) {
    return workspaces.pullRequests(task).stream()
        .filter(pr -> pr.pullRequest().state() != PullRequestState.CLOSED)
        .map(pr -> pr.pullRequest().headCommit())
        .filter(Objects::nonNull)
        .toList();
  }
}
