package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.workspace.BaseRewrite;
import dev.roundhouse.workspace.RemoteRewrite;
import dev.roundhouse.workspace.TaskWorktree;
import dev.roundhouse.workspace.WorkspaceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Flags tasks whose base was rewritten under them (a force-push upstream), never rebasing them: on request for one
 * task ({@code report_base_rewrite}), and for every task cut from the old history when a fetch (before cutting a
 * worktree, or a sync) shows that the remote's base was rewritten. A flag is the {@code rewrite/<task>} record and
 * one {@code workspace.base_rewritten} event, written once.
 *
 * <p>Thread-safe: stateless (two racing flags of one task may both write; the record is the same).
 */
final class BaseRewriteFlags {
  private BaseRewriteFlags() {}

  /** Checks the task's recorded base commit against its base now and flags it when it is gone from it. */
  static WorkspaceOps.RewriteView check(TaskWorkspaces workspaces, Actor actor, Task task, TaskWorktree worktree) {
    BaseRewrite rewrite = TaskWorkspaces.refused(() -> workspaces.engine().worktrees().baseRewrite(worktree));
    Optional<Stored.Rewrite> flagged = workspaces.records().get(Stored.rewrite(task.id()), Stored.Rewrite.class);
    if (rewrite.rewritten() && flagged.isEmpty()) {
      workspaces.records().put(Stored.rewrite(task.id()), new Stored.Rewrite(rewrite, workspaces.clock().instant()),
          TaskWorkspaces.draft(new WorkspaceEvent.BaseRewritten(worktree.branch(), rewrite), actor, task));
    }
    return new WorkspaceOps.RewriteView(task.id(), rewrite, rewrite.rewritten() || flagged.isPresent());
  }

  /**
   * After a fetch showed {@code rewrite}: checks every task with a workspace on that repository and base, and flags
   * those cut from the old history. A task that cannot be read or checked is skipped (the user can still ask with
   * {@code report_base_rewrite}). Returns the ids of the tasks flagged now.
   */
  static List<Long> flagTasksCutFrom(TaskWorkspaces workspaces, Actor actor, RemoteRewrite rewrite) {
    List<Long> flagged = new ArrayList<>();
    for (ExtensionRecord record : workspaces.records().list("task/")) {
      TaskWorktree worktree = Json.mapper().convertValue(record.value(), Stored.TaskRecord.class).worktree();
      if (!worktree.repository().equals(rewrite.repository()) || !worktree.baseBranch().equals(rewrite.baseBranch())
          || workspaces.records().get(Stored.rewrite(worktree.taskId())).isPresent()) {
        continue;
      }
      try {
        Task task = workspaces.task(Actor.USER, worktree.taskId());
        if (check(workspaces, actor, task, worktree).flagged()) {
          flagged.add(task.id());
        }
      } catch (RoundhouseException | WorkspaceException e) {
        // a deleted task, or a repository that cannot be read now: nothing to flag on the board
      }
    }
    return flagged;
  }
}
