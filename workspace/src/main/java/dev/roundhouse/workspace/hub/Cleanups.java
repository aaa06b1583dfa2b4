package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.workspace.PullRequestState;
import dev.roundhouse.workspace.ReclaimOutcome;
import dev.roundhouse.workspace.ReclaimResult;
import dev.roundhouse.workspace.SweepAction;
import dev.roundhouse.workspace.SweepCandidate;
import dev.roundhouse.workspace.SweepItem;
import dev.roundhouse.workspace.SweepReport;
import dev.roundhouse.workspace.SweepRequest;
import dev.roundhouse.workspace.TaskWorktree;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.HashMap;
import java.util.Objects;

/**
 * Reclaiming landed workspaces ({@code task_reclaim}) and the retention sweep ({@code workspace_sweep}, and the
 * poller's periodic run when retention is on). Both fail closed: a task with a running or lingering turn, or
 * whose turns cannot be read, is kept; the engine keeps everything unless it proves the work landed. Between a
 * positive check and the removal, the task's own processes (dev services, terminals: whatever the modules that run
 * them end through {@code ExtensionContext.stopTaskProcesses}) are ended; if one cannot be, everything is kept.
 *
 * <p>Thread-safe (stateless; the engine serialises removals per repository).
 */
final class Cleanups {
  private final TaskWorkspaces workspaces;
  private final DiffResource resource;
  private final WorkspaceSettings settings;

  Cleanups(TaskWorkspaces workspaces, DiffResource resource, WorkspaceSettings settings) {
    this.workspaces = workspaces;
    this.resource = resource;
    this.settings = settings;
  }

  WorkspaceOps.ReclaimView reclaim(Actor actor, WorkspaceOps.TaskRef in) {
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("forbidden", "only a person reclaims a task's workspace");
    }
    Task task = workspaces.task(actor, in.task());
    TaskWorktree worktree = workspaces.worktree(task.id());
    Optional<String> busy = busy(task.id());
    if (busy.isPresent()) {
      return new WorkspaceOps.ReclaimView(task.id(), new ReclaimResult(ReclaimOutcome.KEPT, busy.get()), List.of());
    }
    List<String> heads = mergedHeads(task.id());
    ReclaimResult check = workspaces.engine().cleanup().check(worktree, heads);
    if (check.outcome() == ReclaimOutcome.KEPT) {
      return new WorkspaceOps.ReclaimView(task.id(), check, List.of());
    }
    List<String> stopped;
    try {
      stopped = stopProcesses(actor, worktree);
    } catch (RoundhouseException e) {
      return new WorkspaceOps.ReclaimView(task.id(), new ReclaimResult(ReclaimOutcome.KEPT, e.getMessage()), List.of());
    }
    ReclaimResult result = workspaces.engine().cleanup().reclaim(worktree, heads);
    if (result.outcome() != ReclaimOutcome.KEPT) {
      workspaces.records().delete(Stored.task(task.id()), TaskWorkspaces.draft(
          new WorkspaceEvent.Reclaimed(worktree.branch(), worktree.path(), result.reason(), false), actor, task));
      resource.changed(actor, task.id());
    }
    return new WorkspaceOps.ReclaimView(task.id(), result, stopped);
  }

  WorkspaceOps.SweepView sweep(Actor actor, WorkspaceOps.SweepInput in) {
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("forbidden", "only a person (or the hub's own schedule) sweeps workspaces");
    }
    boolean dryRun = in == null || in.dryRun() == null || in.dryRun();
    int days = in != null && in.retentionDays() != null ? in.retentionDays() : settings.retentionDays();
    if (days < 0) {
      throw new RoundhouseException.InvalidInput("retention_days must be 0 or more, not " + days);
    }
    if (!dryRun && days == 0 && (in == null || in.retentionDays() == null)) {
      throw new RoundhouseException.Conflict("the retention sweep is off (" + WorkspaceSettings.RETENTION_DAYS
          + " is not set): pass retention_days to sweep now, or try a dry run first");
    }
    Long project = in == null || in.project() == null ? null : workspaces.project(in.project()).id();
    return new WorkspaceOps.SweepView(run(actor, dryRun, days, project), days);
  }

  /** The poller's periodic sweep, when retention is on. */
  void scheduledSweep() {
    if (settings.retentionDays() > 0) {
      run(Actor.SCHEDULER, false, settings.retentionDays(), null);
    }
  }

  private SweepReport run(Actor actor, boolean dryRun, int days, Long projectFilter) {
    List<SweepCandidate> candidates = new ArrayList<>();
    List<SweepItem> refused = new ArrayList<>();
    Map<Long, Task> tasks = new HashMap<>();
    for (ExtensionRecord record : workspaces.records().list("task/")) {
      Stored.TaskRecord stored = Json.mapper().convertValue(record.value(), Stored.TaskRecord.class);
      TaskWorktree worktree = stored.worktree();
      Task task;
      try {
        task = workspaces.task(Actor.USER, worktree.taskId());
      } catch (RoundhouseException.NotFound e) {
        task = null; // a deleted task's workspace: the engine's proof still decides
      }
      if (projectFilter != null && (task == null || task.projectId() != projectFilter)) {
        continue;
      }
      if (task != null) {
        tasks.put(task.id(), task);
      }
      Optional<String> busy = task == null ? Optional.empty() : busy(task.id());
      if (busy.isPresent() && !busy.get().contains("running")) {
        refused.add(new SweepItem(worktree.taskId(), worktree.branch(), worktree.path(), SweepAction.KEPT, busy.get()));
        continue;
      }
      Instant activity = task == null || task.updatedAt().isBefore(record.updatedAt()) ? record.updatedAt() : task.updatedAt();
      candidates.add(new SweepCandidate(worktree, busy.isPresent(), activity, mergedHeads(worktree.taskId())));
    }
    SweepReport report = dryRun ? workspaces.engine().cleanup().sweep(new SweepRequest(true, days, candidates))
        : sweepStoppingFirst(actor, days, candidates);
    Map<Long, TaskWorktree> byTask = candidates.stream().map(SweepCandidate::worktree)
        .collect(Collectors.toMap(TaskWorktree::taskId, Function.identity(), (a, b) -> a));
    List<Long> removed = new ArrayList<>();
    for (SweepItem item : report.items()) {
      if (item.action() == SweepAction.REMOVED) {
        TaskWorktree worktree = byTask.get(item.taskId());
        Task task = tasks.get(item.taskId());
        WorkspaceEvent.Reclaimed event = new WorkspaceEvent.Reclaimed(worktree.branch(), worktree.path(), item.reason(), true);
        workspaces.records().delete(Stored.task(item.taskId()),
            event.draft(actor, task == null ? null : task.projectId(), task == null ? null : task.id()));
        removed.add(item.taskId());
      }
    }
    resource.changed(actor, removed);
    List<SweepItem> items = new ArrayList<>(report.items());
    items.addAll(refused);
    return new SweepReport(report.dryRun(), items);
  }

  /**
   * The sweep that removes: first a dry run, then the processes of each task it would remove are ended (a task whose
   * processes cannot be ended is kept), then the removal, which proves everything again.
   */
  private SweepReport sweepStoppingFirst(Actor actor, int days, List<SweepCandidate> candidates) {
    SweepReport plan = workspaces.engine().cleanup().sweep(new SweepRequest(true, days, candidates));
    Map<Long, SweepCandidate> byTask = candidates.stream()
        .collect(Collectors.toMap(candidate -> candidate.worktree().taskId(), Function.identity(), (a, b) -> a));
    List<SweepItem> items = new ArrayList<>();
    List<SweepCandidate> removable = new ArrayList<>();
    Map<Long, List<String>> stopped = new HashMap<>();
    for (SweepItem item : plan.items()) {
      if (item.action() != SweepAction.WOULD_REMOVE) {
        items.add(item);
        continue;
      }
      SweepCandidate candidate = byTask.get(item.taskId());
      try {
        stopped.put(item.taskId(), stopProcesses(actor, candidate.worktree()));
        removable.add(candidate);
      } catch (RoundhouseException e) {
        items.add(new SweepItem(item.taskId(), item.branch(), item.path(), SweepAction.KEPT, e.getMessage()));
      }
    }
    for (SweepItem item : workspaces.engine().cleanup().sweep(new SweepRequest(false, days, removable)).items()) {
      List<String> ended = stopped.getOrDefault(item.taskId(), List.of());
      items.add(ended.isEmpty() ? item : new SweepItem(item.taskId(), item.branch(), item.path(), item.action(),
          item.reason() + "; ended first: " + String.join("; ", ended)));
    }
    return new SweepReport(false, items);
  }

  /**
   * Ends the task's dev services and terminals (through the modules that run them) before its worktree goes.
   *
   * @throws RoundhouseException.Conflict naming what could not be ended: everything is kept
   */
  private List<String> stopProcesses(Actor actor, TaskWorktree worktree) {
    try {
      return workspaces.context().stopTaskProcesses(actor, worktree.taskId(), Path.of(worktree.path()));
    } catch (RuntimeException e) {
      throw new RoundhouseException.Conflict("kept task " + worktree.taskId() + "'s workspace: its processes could not all be"
          + " ended first (" + e.getMessage() + "); nothing was removed");
    }
  }

  /** Why the task's workspace must not be touched now, if it must not: a running turn, or turns that cannot be read. */
  private Optional<String> busy(long task) {
    try {
      return workspaces.running(task)
          ? Optional.of("task " + task + " has a running turn; stop it first (turn_stop)")
          : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("could not tell whether task " + task + " has a running turn (" + e.getMessage() + "), so it is kept");
    }
  }

  private List<String> mergedHeads(long task) {
    return workspaces.pullRequests(task).stream()
        .filter(pr -> pr.pullRequest().state() == PullRequestState.MERGED)
        .map(pr -> pr.pullRequest().headCommit())
        .filter(Objects::nonNull)
        .toList();
  }
}
