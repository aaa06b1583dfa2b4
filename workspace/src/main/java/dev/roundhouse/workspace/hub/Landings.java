package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.workspace.MergeOutcome;
import dev.roundhouse.workspace.MergeResult;
import dev.roundhouse.workspace.TaskWorktree;
import org.eclipse.jgit.lib.Repository;

/**
 * Landing a task and keeping it current: {@code task_merge} (task into base; a conflict changes nothing and
 * may be handed to the task's agent through {@code turn_send}), {@code task_sync} (base into task),
 * {@code set_base_branch} and {@code report_base_rewrite}. Each writes its record and events, then tells the
 * diff resource's subscribers.
 *
 * <p>Thread-safe (stateless; the engine serialises git per repository).
 */
final class Landings {
  private final TaskWorkspaces workspaces;
  private final DiffResource resource;

  Landings(TaskWorkspaces workspaces, DiffResource resource) {
    this.workspaces = workspaces;
    this.resource = resource;
  }

  WorkspaceOps.MergeView merge(Actor actor, WorkspaceOps.MergeInput in) {
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("forbidden", "only a person lands a task on its base; an agent can"
          + " sync its own task (task_sync) or open a pull request (create_pr)");
    }
    Task task = workspaces.task(actor, in.task());
    TaskWorktree worktree = workspaces.worktree(task.id());
    MergeResult result = TaskWorkspaces.refused(() -> workspaces.engine().merges().merge(worktree));
    boolean asked = false;
    String delivery = null;
    switch (result.outcome()) {
      case FAST_FORWARD, MERGE_COMMIT, UP_TO_DATE -> {
        if (result.outcome() != MergeOutcome.UP_TO_DATE || workspaces.records().get(Stored.landed(task.id())).isEmpty()) {
          Stored.Landed landed = new Stored.Landed("merge", result.after(), null, workspaces.clock().instant());
          workspaces.records().put(Stored.landed(task.id()), landed,
              TaskWorkspaces.draft(new WorkspaceEvent.Merged(worktree.branch(), result), actor, task),
              TaskWorkspaces.draft(new WorkspaceEvent.Landed("merge", result.after(), null), actor, task));
        }
      }
      case CONFLICT -> {
        if (Boolean.TRUE.equals(in.askAgent())) {
          TurnApi.SendResult sent = workspaces.operations().call("turn_send", actor,
              new TurnApi.TurnSend(task.id(), conflictMessage(worktree, result), null), TurnApi.SendResult.class);
          asked = true;
          delivery = sent.delivery();
        }
        workspaces.context().append(TaskWorkspaces.draft(
            new WorkspaceEvent.Conflicted(worktree.branch(), "merge", result, asked), actor, task));
      }
      case REFUSED -> { }
    }
    resource.changed(actor, task.id());
    return new WorkspaceOps.MergeView(task.id(), worktree.branch(), result, asked, delivery);
  }

  static String conflictMessage(TaskWorktree worktree, MergeResult result) {
    return "Merging your branch " + worktree.branch() + " into " + worktree.baseBranch() + " conflicts in "
        + String.join(", ", result.conflicts()) + ". Nothing was changed. Please bring " + worktree.baseBranch()
        + " into your branch (git merge " + worktree.baseBranch() + "), resolve the conflicts in those files, and"
        + " commit the merge, so the task can be merged cleanly.";
  }

  WorkspaceOps.MergeView sync(Actor actor, WorkspaceOps.TaskRef in) {
    Task task = workspaces.task(actor, in.task());
    if (actor.isAgent() && !actor.isAgentOf(task.id())) {
      throw new RoundhouseException.Forbidden("forbidden", "an agent syncs only its own task, not task " + task.id());
    }
    TaskWorktree worktree = workspaces.worktree(task.id());
    MergeResult result = TaskWorkspaces.refused(() -> workspaces.engine().merges().sync(worktree));
    if (result.remoteRewrite() != null) {
      BaseRewriteFlags.flagTasksCutFrom(workspaces, actor, result.remoteRewrite());
    }
    switch (result.outcome()) {
      case FAST_FORWARD, MERGE_COMMIT -> workspaces.context().append(
          TaskWorkspaces.draft(new WorkspaceEvent.Synced(worktree.branch(), result), actor, task));
      case CONFLICT -> workspaces.context().append(
          TaskWorkspaces.draft(new WorkspaceEvent.Conflicted(worktree.branch(), "sync", result, false), actor, task));
      case UP_TO_DATE, REFUSED -> { }
    }
    resource.changed(actor, task.id());
    return new WorkspaceOps.MergeView(task.id(), worktree.branch(), result, false, null);
  }

  WorkspaceOps.BaseBranchView setBase(Actor actor, WorkspaceOps.BaseBranchInput in) {
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("forbidden", "only a person sets a project's base branch");
    }
    Project project = workspaces.project(in.project());
    String branch = in.branch() == null ? "" : in.branch().strip();
    if (branch.isEmpty() || !Repository.isValidRefName("refs/heads/" + branch)) {
      throw new RoundhouseException.InvalidInput("'" + in.branch() + "' is not a valid branch name");
    }
    String before = workspaces.baseBranch(project.id());
    workspaces.records().put(Stored.project(project.id()), new Stored.ProjectRecord(branch),
        new WorkspaceEvent.BaseSet(branch, before).draft(actor, project.id(), null));
    return new WorkspaceOps.BaseBranchView(project.id(), branch, before, 
        "new task workspaces are cut from " + branch + "; tasks that already have one keep the base they were cut from");
  }

  WorkspaceOps.RewriteView reportRewrite(Actor actor, WorkspaceOps.TaskRef in) {
    Task task = workspaces.task(actor, in.task());
    return BaseRewriteFlags.check(workspaces, actor, task, workspaces.worktree(task.id()));
  }
}
