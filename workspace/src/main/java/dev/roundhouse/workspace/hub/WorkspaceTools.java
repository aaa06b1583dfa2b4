package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.workspace.TaskWorktree;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gives the agents of tasks in git projects the workspace's read tools ({@code task_workspace},
 * {@code task_diff}, {@code task_commits}) and reviews ({@code submit_review}, {@code get_review}: an agent may
 * review another task's diff), and tells them in their context which branch and worktree they work in. Whether a
 * project is a repository is remembered for a minute per path, so {@link #owns} stays cheap.
 *
 * <p>Thread-safe: a concurrent map of answers (two threads may both ask git; the later answer stays).
 */
final class WorkspaceTools implements TurnContributor {
  private static final Duration REMEMBER = Duration.ofMinutes(1);

  private record Answer(boolean repository, Instant at) {}

  private final TaskWorkspaces workspaces;
  private final Clock clock;
  private final ConcurrentHashMap<String, Answer> repositories = new ConcurrentHashMap<>();

  WorkspaceTools(TaskWorkspaces workspaces) {
    this.workspaces = workspaces;
    this.clock = workspaces.clock();
  }

  @Override
  public boolean owns(Project project, Task task) {
    Instant now = clock.instant();
    Answer known = repositories.get(project.path());
    if (known != null && known.at().plus(REMEMBER).isAfter(now)) {
      return known.repository();
    }
    boolean repository = isRepository(project.path()); // a git child process: outside the map's locks
    repositories.put(project.path(), new Answer(repository, now));
    return repository;
  }

  private boolean isRepository(String path) {
    try {
      return workspaces.engine().worktrees().isRepository(path);
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public Set<String> agentTools() {
    return WorkspaceOperations.AGENT_TOOLS;
  }

  @Override
  public String turnContext(Project project, Task task) {
    return workspaces.recorded(task.id()).map(record -> {
      TaskWorktree worktree = record.worktree();
      return "You work on git branch " + worktree.branch() + " in a worktree of your own (" + worktree.path()
          + "), cut from " + worktree.baseBranch() + ". Commit your work on this branch; do not switch branches."
          + " task_diff and task_commits show your changes against " + worktree.baseBranch()
          + "; get_review shows reviews of them.";
    }).orElse("");
  }
}
