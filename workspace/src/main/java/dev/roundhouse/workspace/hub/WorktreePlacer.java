package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnPlacer;
import dev.roundhouse.workspace.EnsureResult;
import dev.roundhouse.workspace.NotARepositoryException;
import java.nio.file.Path;

/**
 * Places every turn of a task of a git project in the task's own worktree, cutting it on the first turn and
 * repairing it when its folder went missing; a project that is not a repository keeps its own folder, with a
 * note saying so. A worktree that cannot be made fails the turn with the engine's sentence (the hub never runs
 * the agent in the project's checkout instead).
 *
 * <p>Thread-safe (stateless); called on turns' threads with no lock held.
 */
final class WorktreePlacer implements TurnPlacer {
  static final String WORKTREE_VARIABLE = "ROUNDHOUSE_WORKTREE";
  static final String BRANCH_VARIABLE = "ROUNDHOUSE_BRANCH";
  static final String BASE_VARIABLE = "ROUNDHOUSE_BASE_BRANCH";

  private final TaskWorkspaces workspaces;

  WorktreePlacer(TaskWorkspaces workspaces) {
    this.workspaces = workspaces;
  }

  @Override
  public TurnPlace place(Project project, Task task, TurnPlace place) {
    EnsureResult result;
    try {
      result = workspaces.ensure(Actor.SCHEDULER, project, task);
    } catch (NotARepositoryException e) {
      return place.withNote(project.path() + " is not a git repository, so task " + task.id()
          + " works in the project folder itself, without a branch or worktree of its own");
    }
    TurnPlace placed = place.in(Path.of(result.workingDirectory()))
        .withVariable(WORKTREE_VARIABLE, result.worktree().path())
        .withVariable(BRANCH_VARIABLE, result.worktree().branch())
        .withVariable(BASE_VARIABLE, result.worktree().baseBranch());
    for (String note : result.notes()) {
      placed = placed.withNote(note);
    }
    return placed;
  }
}
