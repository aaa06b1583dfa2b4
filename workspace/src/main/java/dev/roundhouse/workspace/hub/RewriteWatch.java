package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.workspace.TaskWorktree;
import dev.roundhouse.workspace.WorkspaceException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks for base rewrites on a timer, so a force-push upstream is noticed even when no task starts or syncs: every
 * {@code period} of the hub's clock, each base that tasks with a workspace were cut from is fetched once (per
 * repository and branch, within the engine's freshness window) and every task not yet flagged or landed is checked as
 * {@code report_base_rewrite} checks it, by the scheduler. A task flagged is never rebased.
 *
 * <p>{@link #tick} is called by the workspace poller ({@code workspace-poll}) on every poll; a round runs when one is
 * due by the hub's clock, so a test moves the clock and polls instead of sleeping.
 *
 * <p>Thread-safe: the time of the last round is an atomic reference; two overlapping ticks may both run a round
 * (flags are written once either way).
 */
final class RewriteWatch {
  private static final Logger log = LoggerFactory.getLogger(RewriteWatch.class);

  private final TaskWorkspaces workspaces;
  private final Duration period;
  private final AtomicReference<Instant> lastRound;

  /** @param period time between rounds, the first one period after now; zero: never */
  RewriteWatch(TaskWorkspaces workspaces, Duration period) {
    this.workspaces = workspaces;
    this.period = period;
    this.lastRound = new AtomicReference<>(workspaces.clock().instant());
  }

  /** Runs a round when one is due by the hub's clock; returns the tasks flagged now. */
  List<Long> tick() {
    if (period.isZero()) {
      return List.of();
    }
    Instant now = workspaces.clock().instant();
    Instant last = lastRound.get();
    if (last.plus(period).isAfter(now) || !lastRound.compareAndSet(last, now)) {
      return List.of();
    }
    return round();
  }

  /** Fetches each base once, then checks every task that is neither flagged nor landed. */
  List<Long> round() {
    Map<String, List<TaskWorktree>> byBase = new LinkedHashMap<>();
    for (ExtensionRecord record : workspaces.records().list("task/")) {
      TaskWorktree worktree = Json.mapper().convertValue(record.value(), Stored.TaskRecord.class).worktree();
      if (worktree.baseCommit() == null || workspaces.records().get(Stored.rewrite(worktree.taskId())).isPresent()
          || workspaces.records().get(Stored.landed(worktree.taskId())).isPresent()) {
        continue;
      }
      byBase.computeIfAbsent(worktree.repository() + "\0" + worktree.baseBranch(), key -> new ArrayList<>()).add(worktree);
    }
    List<Long> flagged = new ArrayList<>();
    for (List<TaskWorktree> tasks : byBase.values()) {
      TaskWorktree first = tasks.getFirst();
      try {
        workspaces.engine().worktrees().fetchBase(first.repository(), first.baseBranch());
      } catch (WorkspaceException e) {
        log.info("rewrite check: could not fetch {} of {}: {}", first.baseBranch(), first.repository(), e.getMessage());
        continue;
      }
      for (TaskWorktree worktree : tasks) {
        try {
          Task task = workspaces.task(Actor.USER, worktree.taskId());
          if (BaseRewriteFlags.check(workspaces, Actor.SCHEDULER, task, worktree).flagged()) {
            flagged.add(task.id());
          }
        } catch (RoundhouseException | WorkspaceException e) {
          // a deleted task, or a repository that cannot be read now: the next round tries again
        }
      }
    }
    return flagged;
  }
}
