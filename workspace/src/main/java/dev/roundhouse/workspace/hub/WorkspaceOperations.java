package dev.roundhouse.workspace.hub;

import static dev.roundhouse.hub.ops.OperationAnnotations.CREATE;
import static dev.roundhouse.hub.ops.OperationAnnotations.DESTRUCTIVE;
import static dev.roundhouse.hub.ops.OperationAnnotations.READ;
import static dev.roundhouse.hub.ops.OperationAnnotations.UPDATE;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.workspace.EnsureResult;
import dev.roundhouse.workspace.FileChange;
import dev.roundhouse.workspace.NotARepositoryException;
import dev.roundhouse.workspace.TaskDiff;
import dev.roundhouse.workspace.TaskWorktree;
import dev.roundhouse.workspace.WorktreeStatus;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The workspace's operations, as every face offers them: names, descriptions, schemas (from
 * {@link WorkspaceOps}) and handlers, each a thin call into the engine through the extension's parts.
 *
 * @param workspaces tasks, records and ensuring worktrees
 * @param landings merge, sync, base branch, base rewrite
 * @param reviews reviews
 * @param pullRequests pull requests
 * @param cleanups reclaim and sweep
 */
record WorkspaceOperations(TaskWorkspaces workspaces, Landings landings, Reviews reviews, PullRequestDesk pullRequests,
    Cleanups cleanups) {

  /** The operations an agent gets as tools (see {@link WorkspaceTools}). */
  static final Set<String> AGENT_TOOLS = Set.of("task_workspace", "task_diff", "task_commits",
      "submit_review", "get_review");

  void register(OperationRegistry registry) {
    registry.register(Operation.of("task_workspace",
        "A task's git workspace: its branch, worktree folder, base, status (uncommitted files, ahead/behind) and"
            + " whether it landed. ensure: true cuts (or repairs) it now instead of at the task's first turn.",
        WorkspaceOps.WorkspaceQuery.class, WorkspaceOps.WorkspaceView.class, UPDATE, (actor, in) -> workspace(actor, in)));
    registry.register(Operation.of("task_diff",
        "What a task changed against the merge-base with its base branch: files (added, modified, deleted, renamed;"
            + " binary flagged; line counts; uncommitted changes marked) and, with hunks: true, each file's hunks.",
        WorkspaceOps.DiffQuery.class, WorkspaceOps.DiffView.class, READ, (actor, in) -> diff(actor, in)));
    registry.register(Operation.of("task_commits",
        "A task's own commits (not on its base), newest first, with how far it is ahead of and behind its base.",
        WorkspaceOps.TaskRef.class, WorkspaceOps.CommitsView.class, READ, (actor, in) -> commits(actor, in)));
    registry.register(Operation.of("task_merge",
        "Land a task on its base branch: fast-forward when possible, else a merge commit. A conflict changes nothing"
            + " and names the files; ask_agent: true sends them to the task's agent to resolve. People only.",
        WorkspaceOps.MergeInput.class, WorkspaceOps.MergeView.class, CREATE, (actor, in) -> landings.merge(actor, in)));
    registry.register(Operation.of("task_sync",
        "Bring the task's base branch (fetched first when it has a remote) into the task's branch; a conflict changes"
            + " nothing and names the files.",
        WorkspaceOps.TaskRef.class, WorkspaceOps.MergeView.class, CREATE, (actor, in) -> landings.sync(actor, in)));
    registry.register(Operation.of("set_base_branch",
        "Set the branch a project's new task workspaces are cut from and merged into (default: the remote's default"
            + " branch, else the checkout's). People only.",
        WorkspaceOps.BaseBranchInput.class, WorkspaceOps.BaseBranchView.class, UPDATE, (actor, in) -> landings.setBase(actor, in)));
    registry.register(Operation.of("report_base_rewrite",
        "Check whether a task's base was rewritten since its workspace was cut (a force-push upstream) and flag the"
            + " task if so; it is never rebased silently.",
        WorkspaceOps.TaskRef.class, WorkspaceOps.RewriteView.class, UPDATE, (actor, in) -> landings.reportRewrite(actor, in)));
    registry.register(Operation.of("submit_review",
        "Review a task's diff: verdict approve or request_changes, a summary, and comments anchored to a file of the"
            + " diff and a line of its new version. Replaces your earlier review of that task.",
        WorkspaceOps.ReviewInput.class, Stored.Review.class, UPDATE, (actor, in) -> reviews.submit(actor, in)));
    registry.register(Operation.of("get_review",
        "The reviews of a task's diff, newest first, and their combined state (approved, changes_requested, none).",
        WorkspaceOps.ReviewQuery.class, WorkspaceOps.Reviews.class, READ, (actor, in) -> reviews.reviews(actor, in.task())));
    registry.register(Operation.of("withdraw_review",
        "Withdraw your review of a task (the user may name another reviewer's).",
        WorkspaceOps.WithdrawInput.class, WorkspaceOps.Withdrawn.class, DESTRUCTIVE, (actor, in) -> reviews.withdraw(actor, in)));
    registry.register(Operation.of("create_pr",
        "Open a pull request for a task's branch on the configured forge (gh, or a local bare repository); without"
            + " one, says what to configure.",
        WorkspaceOps.PullRequestInput.class, Stored.PullRequestRecord.class, CREATE, (actor, in) -> pullRequests.create(actor, in)));
    registry.register(Operation.of("task_pull_requests",
        "A task's pull requests with their state (open, merged, closed) and checks, as last polled; refresh: true"
            + " asks the forge now.",
        WorkspaceOps.PullRequestQuery.class, WorkspaceOps.PullRequests.class,
        new OperationAnnotations(false, false, true), (actor, in) -> listPullRequests(actor, in)));
    registry.register(Operation.of("task_reclaim",
        "Remove a landed task's worktree and branch, only with proof its work is on the base (or in a merged pull"
            + " request) and its worktree is clean, after ending the task's processes (its dev services and terminals);"
            + " any doubt keeps everything and says why. People only.",
        WorkspaceOps.TaskRef.class, WorkspaceOps.ReclaimView.class, DESTRUCTIVE, (actor, in) -> cleanups.reclaim(actor, in)));
    registry.register(Operation.of("workspace_sweep",
        "The retention sweep: list (dry_run, the default) or remove landed, clean workspaces older than retention_days;"
            + " says why each other one is kept. Never touches a task with a running turn. People only.",
        WorkspaceOps.SweepInput.class, WorkspaceOps.SweepView.class, DESTRUCTIVE, (actor, in) -> cleanups.sweep(actor, in)));
  }

  private WorkspaceOps.WorkspaceView workspace(Actor actor, WorkspaceOps.WorkspaceQuery in) {
    Task task = workspaces.task(actor, in.task());
    String outcome = null;
    List<String> notes = List.of();
    String workingDirectory = null;
    if (Boolean.TRUE.equals(in.ensure())) {
      if (actor.isAgent() && !actor.isAgentOf(task.id())) {
        throw new RoundhouseException.Forbidden("forbidden", "an agent makes a workspace only for its own task, not task " + task.id());
      }
      Project project = workspaces.project(task.projectId());
      try {
        EnsureResult result = workspaces.ensure(actor, project, task);
        outcome = result.outcome().name().toLowerCase(Locale.ROOT);
        notes = result.notes();
        workingDirectory = result.workingDirectory();
      } catch (NotARepositoryException e) {
        return new WorkspaceOps.WorkspaceView(task.id(), null, project.path(), null, null, null, null, List.of(), e.getMessage());
      }
    }
    Optional<Stored.TaskRecord> recorded = workspaces.recorded(task.id());
    if (recorded.isEmpty()) {
      return new WorkspaceOps.WorkspaceView(task.id(), null, null, null, null, null, null, List.of(),
          "task " + task.id() + " has no workspace yet: its first turn makes one when its project is a git repository");
    }
    TaskWorktree worktree = recorded.get().worktree();
    WorktreeStatus status = TaskWorkspaces.refused(() -> workspaces.engine().changes().status(worktree));
    String landed = workspaces.records().get(Stored.landed(task.id()), Stored.Landed.class).map(Stored.Landed::how).orElse(null);
    var rewrite = workspaces.records().get(Stored.rewrite(task.id()), Stored.Rewrite.class).map(Stored.Rewrite::rewrite).orElse(null);
    return new WorkspaceOps.WorkspaceView(task.id(), worktree, workingDirectory, outcome, status, rewrite, landed,
        notes.isEmpty() ? recorded.get().notes() : notes, null);
  }

  private WorkspaceOps.DiffView diff(Actor actor, WorkspaceOps.DiffQuery in) {
    Task task = workspaces.task(actor, in.task());
    TaskWorktree worktree = workspaces.worktree(task.id());
    TaskDiff diff = TaskWorkspaces.refused(() -> workspaces.engine().changes().diff(worktree, Boolean.TRUE.equals(in.hunks())));
    if (in.path() != null && !in.path().isBlank()) {
      List<FileChange> files = diff.files().stream()
          .filter(file -> file.path().equals(in.path()) || in.path().equals(file.oldPath())).toList();
      diff = new TaskDiff(diff.mergeBase(), diff.head(), diff.baseBranch(), diff.baseTip(), files,
          files.stream().mapToInt(FileChange::added).sum(), files.stream().mapToInt(FileChange::removed).sum());
    }
    return new WorkspaceOps.DiffView(task.id(), worktree.branch(), diff);
  }

  private WorkspaceOps.CommitsView commits(Actor actor, WorkspaceOps.TaskRef in) {
    Task task = workspaces.task(actor, in.task());
    TaskWorktree worktree = workspaces.worktree(task.id());
    return new WorkspaceOps.CommitsView(task.id(), worktree.branch(),
        TaskWorkspaces.refused(() -> workspaces.engine().changes().commits(worktree)));
  }

  private WorkspaceOps.PullRequests listPullRequests(Actor actor, WorkspaceOps.PullRequestQuery in) {
    Task task = workspaces.task(actor, in.task());
    return new WorkspaceOps.PullRequests(task.id(), Boolean.TRUE.equals(in.refresh())
        ? pullRequests.refresh(actor, task.id())
        : workspaces.pullRequests(task.id()));
  }
}
