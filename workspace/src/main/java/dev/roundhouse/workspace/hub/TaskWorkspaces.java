package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionRecords;
import dev.roundhouse.workspace.EnsureOutcome;
import dev.roundhouse.workspace.EnsureResult;
import dev.roundhouse.workspace.MissingBranchException;
import dev.roundhouse.workspace.NotARepositoryException;
import dev.roundhouse.workspace.TaskWorktree;
import dev.roundhouse.workspace.Workspace;
import dev.roundhouse.workspace.WorkspaceException;
import dev.roundhouse.workspace.WorktreeRequest;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import dev.roundhouse.hub.core.Json;
import java.util.Comparator;

/**
 * The extension's view of tasks and their workspaces: the hub's tasks and projects (read through its
 * operations), the records kept for them, and ensuring a task's worktree with its record and events. Every
 * other part of the extension goes through here.
 *
 * <p>Thread-safe: holds no state of its own beyond what the hub and the engine keep; takes no lock (the
 * engine serialises git per repository; two concurrent first ensures of one task both find the same
 * worktree, and the second records nothing new).
 */
final class TaskWorkspaces {
  private final ExtensionContext context;
  private final Workspace engine;
  private final ExtensionRecords records;

  TaskWorkspaces(ExtensionContext context, Workspace engine) {
    this.context = context;
    this.engine = engine;
    this.records = context.records(Stored.NAMESPACE);
  }

  Workspace engine() {
    return engine;
  }

  ExtensionRecords records() {
    return records;
  }

  ExtensionContext context() {
    return context;
  }

  OperationRegistry operations() {
    return context.operations();
  }

  Clock clock() {
    return context.clock();
  }

  /** The task, as {@code actor} may read it. */
  Task task(Actor actor, long id) {
    return operations().call("task_get", actor, new BoardApi.TaskRef(id), Task.class);
  }

  Project project(long id) {
    return operations().call("project_get", Actor.USER, new BoardApi.ProjectRef(Long.toString(id)), Project.class);
  }

  /** The project by id or name, as the board resolves it. */
  Project project(String reference) {
    return operations().call("project_get", Actor.USER, new BoardApi.ProjectRef(reference), Project.class);
  }

  Optional<Stored.TaskRecord> recorded(long task) {
    return records.get(Stored.task(task), Stored.TaskRecord.class);
  }

  /** The task's recorded workspace, or a refusal saying how it gets one. */
  TaskWorktree worktree(long task) {
    return recorded(task).map(Stored.TaskRecord::worktree).orElseThrow(() -> new RoundhouseException.NotFound(
        "task " + task + " has no workspace yet: its first turn makes one (or task_workspace with ensure: true),"
            + " if its project is a git repository"));
  }

  /** The base branch set for the project's new workspaces (set_base_branch), or null for the repository's default. */
  String baseBranch(long project) {
    return records.get(Stored.project(project), Stored.ProjectRecord.class).map(Stored.ProjectRecord::baseBranch).orElse(null);
  }

  /** The task's pull requests as last polled, oldest first. */
  List<Stored.PullRequestRecord> pullRequests(long task) {
    return records.list(Stored.pullRequests(task)).stream()
        .map(record -> Json.mapper().convertValue(record.value(), Stored.PullRequestRecord.class))
        .sorted(Comparator.comparingLong(pr -> pr.pullRequest().number()))
        .toList();
  }

  /** Whether a turn of the task is running or lingering, as the hub's {@code turn_list} says. */
  boolean running(long task) {
    TurnApi.TurnList turns = operations().call("turn_list", Actor.USER, new TurnApi.TurnListQuery(task, 5), TurnApi.TurnList.class);
    return turns.turns().stream().anyMatch(Turn::active);
  }

  /**
   * The task's worktree, cut on first use and repaired when needed; the record and a {@code workspace.created}
   * or {@code workspace.repaired} event are written when something changed.
   *
   * @throws NotARepositoryException when the project is not in a git repository (callers decide what that means)
   * @throws RoundhouseException.Conflict with the engine's sentence for every other failure
   */
  EnsureResult ensure(Actor actor, Project project, Task task) {
    Optional<Stored.TaskRecord> before = recorded(task.id());
    WorktreeRequest request = before
        .map(record -> new WorktreeRequest(record.worktree().project(), project.path(), task.id(), task.title(),
            record.worktree().baseBranch(), record.worktree().branch(), record.worktree().baseCommit()))
        .orElseGet(() -> WorktreeRequest.of(project.name(), project.path(), task.id(), task.title())
            .withBaseBranch(baseBranch(project.id())));
    EnsureResult result = refused(() -> engine.worktrees().ensure(request));
    boolean changed = before.isEmpty() || result.outcome() != EnsureOutcome.REUSED
        || !Objects.equals(before.get().worktree(), result.worktree());
    if (changed) {
      Stored.TaskRecord record = new Stored.TaskRecord(result.worktree(),
          before.map(Stored.TaskRecord::createdAt).orElse(clock().instant()), result.notes());
      WorkspaceEvent event = result.outcome() == EnsureOutcome.CREATED || before.isEmpty()
          ? new WorkspaceEvent.Created(result.worktree(), result.workingDirectory(), result.notes())
          : new WorkspaceEvent.Repaired(result.worktree(), result.workingDirectory(), result.notes());
      records.put(Stored.task(task.id()), record, draft(event, actor, task));
      if (task.branch() == null || task.branch().isBlank()) {
        showBranch(task.id(), result.worktree().branch());
      }
    }
    if (result.remoteRewrite() != null) {
      // After the record: a task cut just now from the local base's old history is flagged too.
      BaseRewriteFlags.flagTasksCutFrom(this, actor, result.remoteRewrite());
    }
    return result;
  }

  /** Puts the branch on the card (an edit by the scheduler), so every face shows it. */
  private void showBranch(long task, String branch) {
    try {
      operations().call("task_update", Actor.SCHEDULER,
          new BoardApi.TaskUpdate(task, null, null, null, null, null, null, null, null, branch, null, null, null), Task.class);
    } catch (RoundhouseException e) {
      // the card keeps its branch field; the workspace record is what counts
    }
  }

  static EventDraft draft(WorkspaceEvent event, Actor actor, Task task) {
    return event.draft(actor, task.projectId(), task.id());
  }

  /** Runs an engine call, its failures as the hub's refusals with the engine's sentence. */
  static <T> T refused(Supplier<T> call) {
    try {
      return call.get();
    } catch (NotARepositoryException e) {
      throw e;
    } catch (MissingBranchException e) {
      throw new RoundhouseException.Conflict(e.getMessage());
    } catch (WorkspaceException e) {
      throw new RoundhouseException.Conflict(e.getMessage());
    }
  }
}
