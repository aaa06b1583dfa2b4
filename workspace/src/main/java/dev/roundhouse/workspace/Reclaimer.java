package dev.roundhouse.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Decides whether a task's workspace may go, and removes it. It may go only with positive proof: the branch
 * exists, its tip is in the base or in a merged pull request's head, the worktree (if any) is registered,
 * unlocked, on the task's branch, not busy and clean, untracked files included. Removal is
 * {@code git worktree remove} without force (git checks cleanliness once more) and then a compare-and-swap
 * delete of the branch at the proven tip. Every failure keeps what is left and says why.
 *
 * <p>Stateless apart from its collaborators; thread-safe. Callers hold the repository's lock.
 */
final class Reclaimer {

  /** Whether the workspace may be removed, and the sentence why (the proof, or the reason to keep it). */
  record Verdict(ReclaimOutcome outcome, String reason, ObjectId tip, boolean registered) {
    boolean removable() {
      return outcome == ReclaimOutcome.RECLAIMED;
    }
  }

  private final GitCli git;
  private final WorktreeSlot slot;

  Reclaimer(GitCli git) {
    this.git = git;
    this.slot = new WorktreeSlot(git);
  }

  Verdict judge(Repo repo, TaskWorktree worktree, List<String> mergedPrHeads) throws Exception {
    Path path = Path.of(worktree.path());
    WorktreeEntry registered = WorktreeSlot.at(slot.entries(repo), path);
    boolean folder = Files.exists(path);
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      ObjectId tip = JGitSupport.branch(main, worktree.branch());
      if (tip == null && registered == null && !folder) {
        return keep(ReclaimOutcome.ALREADY_GONE, "neither worktree " + path + " nor branch " + worktree.branch()
            + " exists any more");
      }
      if (tip == null) {
        return keep(ReclaimOutcome.KEPT, "branch " + worktree.branch() + " is missing, so nothing proves its work landed");
      }
      if (folder && registered == null) {
        return keep(ReclaimOutcome.KEPT, "folder " + path + " is not a registered worktree of repository " + repo);
      }
      if (registered != null) {
        if (registered.locked() != null) {
          return keep(ReclaimOutcome.KEPT, "worktree " + path + " is locked (" + registered.locked() + ")");
        }
        if (folder) {
          if (!worktree.branch().equals(registered.branch())) {
            return keep(ReclaimOutcome.KEPT, "worktree " + path + " has " + (registered.branch() == null
                ? "a detached HEAD" : registered.branch()) + " checked out, not " + worktree.branch());
          }
          Checkouts.Report report = Checkouts.inspect(path, true);
          if (!report.clear()) {
            return keep(ReclaimOutcome.KEPT, "worktree " + path + " " + report.obstacle());
          }
        }
      }
      String proof = Landing.proof(main, worktree, tip, mergedPrHeads);
      if (proof == null) {
        List<CommitInfo> unlanded = Landing.unlanded(main, worktree, List.of(tip), mergedPrHeads);
        return keep(ReclaimOutcome.KEPT, "branch " + worktree.branch() + " has work that has not landed ("
            + Checkouts.sample(unlanded.stream().map(CommitInfo::shortId).toList()) + " not in "
            + worktree.baseBranch() + " nor in a merged pull request)");
      }
      return new Verdict(ReclaimOutcome.RECLAIMED, "branch " + worktree.branch() + " landed: " + proof, tip,
          registered != null);
    }
  }

  ReclaimResult remove(Repo repo, TaskWorktree worktree, Verdict verdict) {
    if (verdict.registered()) {
      GitResult removed = git.run(repo.topLevel(), "worktree", "remove", worktree.path());
      if (!removed.ok()) {
        return new ReclaimResult(ReclaimOutcome.KEPT, "git worktree remove failed in repository " + repo + ": "
            + removed.why() + "; everything was kept");
      }
    }
    GitResult deleted = git.run(repo.topLevel(), "update-ref", "-d", "refs/heads/" + worktree.branch(),
        verdict.tip().name());
    if (!deleted.ok()) {
      return new ReclaimResult(ReclaimOutcome.KEPT, "worktree " + worktree.path() + " was removed but branch "
          + worktree.branch() + " was kept: " + deleted.why());
    }
    return new ReclaimResult(ReclaimOutcome.RECLAIMED, "removed worktree " + worktree.path() + " and "
        + verdict.reason());
  }

  private static Verdict keep(ReclaimOutcome outcome, String reason) {
    return new Verdict(outcome, reason, null, false);
  }
}
