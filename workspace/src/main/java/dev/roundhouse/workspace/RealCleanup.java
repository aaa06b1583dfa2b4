package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import java.nio.file.Files;

/**
 * Stranded work, reclaim and the retention sweep. Fails closed throughout: an exception, a timeout or a doubt
 * becomes "stranded" or "kept" with its sentence, never a removal.
 *
 * <p>Thread-safe; reclaims run under their repository's lock.
 */
final class RealCleanup implements Cleanup {
  private final RepoLocator locator;
  private final RepositoryLocks locks;
  private final Reclaimer reclaimer;
  private final Clock clock;

  RealCleanup(RepoLocator locator, RepositoryLocks locks, Reclaimer reclaimer, Clock clock) {
    this.locator = locator;
    this.locks = locks;
    this.reclaimer = reclaimer;
    this.clock = clock;
  }

  @Override
  public Stranded stranded(TaskWorktree worktree, List<String> coveredCommits) {
    String task = "task " + worktree.taskId();
    try (Repository main = Landing.open(worktree)) {
      ObjectId tip = JGitSupport.branch(main, worktree.branch());
      if (tip == null && !Files.exists(Path.of(worktree.path()))) {
        return new Stranded(false, List.of(), List.of(), "neither branch " + worktree.branch() + " nor worktree "
            + worktree.path() + " of " + task + " exists any more; nothing is left to lose");
      }
      if (tip == null) {
        return new Stranded(true, List.of(), List.of(), "branch " + worktree.branch() + " of " + task
            + " is missing, so its work cannot be checked");
      }
      Checkouts.Report report = Checkouts.inspect(Path.of(worktree.path()), true);
      if (!report.missing() && !report.clear() && report.files().isEmpty()) {
        return new Stranded(true, List.of(), List.of(), task + "'s worktree " + report.obstacle()
            + ", so its work cannot be checked");
      }
      List<ObjectId> tips = new ArrayList<>(List.of(tip));
      try (Repository work = report.missing() ? null : JGitSupport.openWorktree(Path.of(worktree.path()))) {
        ObjectId head = work == null ? null : work.resolve(Constants.HEAD);
        if (head != null && !head.equals(tip)) {
          tips.add(head);
        }
      }
      List<CommitInfo> commits = Landing.unlanded(main, worktree, tips, coveredCommits);
      if (report.files().isEmpty() && commits.isEmpty()) {
        return new Stranded(false, List.of(), List.of(), task + " has no work outside " + worktree.baseBranch()
            + " and its pull requests");
      }
      List<String> parts = new ArrayList<>();
      if (!report.files().isEmpty()) {
        parts.add("uncommitted changes in " + Checkouts.sample(report.files()));
      }
      if (!commits.isEmpty()) {
        parts.add(commits.size() + " commit(s) in neither " + worktree.baseBranch() + " nor a pull request ("
            + Checkouts.sample(commits.stream().map(CommitInfo::shortId).toList()) + ")");
      }
      return new Stranded(true, report.files(), commits, task + " has " + String.join(" and ", parts));
    } catch (Exception e) {
      return new Stranded(true, List.of(), List.of(), "could not check " + task + "'s work in repository "
          + worktree.repository() + " (" + e.getMessage() + "), so it counts as stranded");
    }
  }

  @Override
  public ReclaimResult reclaim(TaskWorktree worktree, List<String> mergedPrHeads) {
    try {
      Repo repo = locator.locate(worktree.repository());
      return locks.with(repo, () -> {
        Reclaimer.Verdict verdict = judge(repo, worktree, mergedPrHeads);
        return verdict.removable() ? reclaimer.remove(repo, worktree, verdict)
            : new ReclaimResult(verdict.outcome(), verdict.reason());
      });
    } catch (RuntimeException e) {
      return kept(worktree, e);
    }
  }

  @Override
  public ReclaimResult check(TaskWorktree worktree, List<String> mergedPrHeads) {
    try {
      Repo repo = locator.locate(worktree.repository());
      Reclaimer.Verdict verdict = locks.with(repo, () -> judge(repo, worktree, mergedPrHeads));
      return new ReclaimResult(verdict.outcome(), verdict.reason());
    } catch (RuntimeException e) {
      return kept(worktree, e);
    }
  }

  @Override
  public SweepReport sweep(SweepRequest request) {
    Instant now = clock.instant();
    Duration retention = Duration.ofDays(request.retentionDays());
    List<SweepItem> items = new ArrayList<>();
    for (SweepCandidate candidate : request.candidates()) {
      TaskWorktree worktree = candidate.worktree();
      if (candidate.running()) {
        items.add(item(worktree, SweepAction.KEPT, "a turn is running on task " + worktree.taskId()));
      } else if (candidate.lastActivity() != null && candidate.lastActivity().plus(retention).isAfter(now)) {
        items.add(item(worktree, SweepAction.KEPT, "task " + worktree.taskId() + " was active "
            + Duration.between(candidate.lastActivity(), now).toDays() + " day(s) ago; workspaces are kept for "
            + request.retentionDays() + " day(s)"));
      } else if (request.dryRun()) {
        items.add(dryRun(candidate));
      } else {
        ReclaimResult result = reclaim(worktree, candidate.mergedPrHeads());
        items.add(item(worktree, result.outcome() == ReclaimOutcome.RECLAIMED ? SweepAction.REMOVED
            : SweepAction.KEPT, result.reason()));
      }
    }
    return new SweepReport(request.dryRun(), items);
  }

  private SweepItem dryRun(SweepCandidate candidate) {
    ReclaimResult check = check(candidate.worktree(), candidate.mergedPrHeads());
    return item(candidate.worktree(), check.outcome() == ReclaimOutcome.RECLAIMED ? SweepAction.WOULD_REMOVE : SweepAction.KEPT,
        check.reason());
  }

  private Reclaimer.Verdict judge(Repo repo, TaskWorktree worktree, List<String> heads) {
    try {
      return reclaimer.judge(repo, worktree, heads);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new WorkspaceException(e.getMessage(), e);
    }
  }

  private static ReclaimResult kept(TaskWorktree worktree, RuntimeException e) {
    return new ReclaimResult(ReclaimOutcome.KEPT, "kept task " + worktree.taskId() + "'s workspace: "
        + e.getMessage());
  }

  private static SweepItem item(TaskWorktree worktree, SweepAction action, String reason) {
    return new SweepItem(worktree.taskId(), worktree.branch(), worktree.path(), action, reason);
  }
}
