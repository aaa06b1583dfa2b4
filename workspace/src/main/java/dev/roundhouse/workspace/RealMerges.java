package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Merge (task into base) and sync (base into task). The result is computed first, with no checkout touched
 * ({@link MergeTree}); the target branch then only fast-forwards to it through {@link BranchMover}. So a
 * conflict changes nothing, and a merge into a base that the user has checked out lands only when that
 * checkout is clean (and then moves with it), else it is refused with a sentence.
 *
 * <p>Thread-safe; each merge runs under its repository's lock.
 */
final class RealMerges implements Merges {
  private final RepoLocator locator;
  private final RepositoryLocks locks;
  private final MergeTree mergeTree;
  private final BranchMover mover;
  private final CutPoint cutPoint;

  RealMerges(RepoLocator locator, RepositoryLocks locks, MergeTree mergeTree, BranchMover mover, CutPoint cutPoint) {
    this.locator = locator;
    this.locks = locks;
    this.mergeTree = mergeTree;
    this.mover = mover;
    this.cutPoint = cutPoint;
  }

  @Override
  public MergeResult merge(TaskWorktree worktree) {
    Repo repo = locator.locate(worktree.repository());
    return locks.with(repo, () -> mergeLocked(repo, worktree));
  }

  private MergeResult mergeLocked(Repo repo, TaskWorktree worktree) {
    String base = worktree.baseBranch();
    ObjectId task;
    ObjectId baseTip;
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      task = TaskRefs.of(main, worktree).task();
      baseTip = JGitSupport.branch(main, base);
      if (baseTip == null) {
        throw new WorkspaceException("base branch " + base + " does not exist in repository " + repo);
      }
      Checkouts.Report work = Checkouts.inspect(Path.of(worktree.path()), true);
      if (!work.missing() && !work.clear()) {
        return refused(base, baseTip, "task " + worktree.taskId() + "'s worktree " + work.obstacle()
            + "; commit that work (or ask the agent to) before merging");
      }
      if (JGitSupport.isAncestor(main, task, baseTip)) {
        return new MergeResult(MergeOutcome.UP_TO_DATE, base, baseTip.name(), baseTip.name(), List.of(),
            base + " already contains task " + worktree.taskId() + "'s branch " + worktree.branch());
      }
      boolean fastForward = JGitSupport.isAncestor(main, baseTip, task);
      ObjectId target = task;
      if (!fastForward) {
        MergeTree.Outcome merged = mergeTree.merge(repo.topLevel(), baseTip, task);
        if (!merged.conflicts().isEmpty()) {
          return conflict(base, baseTip, merged.conflicts(), "task " + worktree.taskId() + "'s branch "
              + worktree.branch() + " conflicts with " + base);
        }
        target = mergeTree.commit(repo.topLevel(), merged.tree(), "Merge branch '" + worktree.branch() + "' into "
            + base, baseTip, task);
      }
      String left = mover.fastForward(repo, base, baseTip, target, "roundhouse: merge task " + worktree.taskId(), true);
      if (left != null) {
        return refused(base, baseTip, left);
      }
      return new MergeResult(fastForward ? MergeOutcome.FAST_FORWARD : MergeOutcome.MERGE_COMMIT, base,
          baseTip.name(), target.name(), List.of(), "task " + worktree.taskId() + " landed on " + base
          + (fastForward ? " (fast-forward)" : " (merge commit " + JGitSupport.abbreviate(target) + ")"));
    } catch (IOException e) {
      throw new WorkspaceException("could not merge task " + worktree.taskId() + " into " + base + " in repository "
          + repo + ": " + e.getMessage(), e);
    }
  }

  @Override
  public MergeResult sync(TaskWorktree worktree) {
    Repo repo = locator.locate(worktree.repository());
    return locks.with(repo, () -> {
      CutPoint.Choice choice = cutPoint.choose(repo, worktree.baseBranch());
      return syncLocked(repo, worktree, choice.commit()).withRemoteRewrite(choice.rewrite());
    });
  }

  private MergeResult syncLocked(Repo repo, TaskWorktree worktree, ObjectId baseTip) {
    String branch = worktree.branch();
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      ObjectId task = TaskRefs.of(main, worktree).task();
      if (JGitSupport.isAncestor(main, baseTip, task)) {
        return new MergeResult(MergeOutcome.UP_TO_DATE, branch, task.name(), task.name(), List.of(),
            branch + " already contains " + worktree.baseBranch());
      }
      boolean fastForward = JGitSupport.isAncestor(main, task, baseTip);
      ObjectId target = baseTip;
      if (!fastForward) {
        MergeTree.Outcome merged = mergeTree.merge(repo.topLevel(), task, baseTip);
        if (!merged.conflicts().isEmpty()) {
          return conflict(branch, task, merged.conflicts(), worktree.baseBranch() + " conflicts with task "
              + worktree.taskId() + "'s branch " + branch + "; the agent can resolve it with git merge "
              + worktree.baseBranch());
        }
        target = mergeTree.commit(repo.topLevel(), merged.tree(), "Merge branch '" + worktree.baseBranch()
            + "' into " + branch, task, baseTip);
      }
      // The task's worktree may hold uncommitted work: git carries it over or refuses, never overwrites it.
      String left = mover.fastForward(repo, branch, task, target, "roundhouse: sync task " + worktree.taskId(), false);
      if (left != null) {
        return refused(branch, task, left);
      }
      return new MergeResult(fastForward ? MergeOutcome.FAST_FORWARD : MergeOutcome.MERGE_COMMIT, branch,
          task.name(), target.name(), List.of(), "task " + worktree.taskId() + " now contains "
          + worktree.baseBranch());
    } catch (IOException e) {
      throw new WorkspaceException("could not sync task " + worktree.taskId() + " with " + worktree.baseBranch()
          + " in repository " + repo + ": " + e.getMessage(), e);
    }
  }

  private static MergeResult conflict(String target, ObjectId tip, List<String> files, String why) {
    return new MergeResult(MergeOutcome.CONFLICT, target, tip.name(), tip.name(), files, why + " in "
        + Checkouts.sample(files) + "; nothing was changed");
  }

  private static MergeResult refused(String target, ObjectId tip, String why) {
    return new MergeResult(MergeOutcome.REFUSED, target, tip.name(), tip.name(), List.of(), why
        + "; nothing was changed");
  }
}
