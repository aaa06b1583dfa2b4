package dev.roundhouse.workspace;

import java.util.List;

/**
 * Never lose work: what would be lost, removing a workspace only with proof its work landed, and the
 * retention sweep. Every failure or doubt keeps everything. Thread-safe; removals serialised per repository.
 */
public interface Cleanup {

  /**
   * @param coveredCommits heads of the task's open or merged pull requests: their commits are covered
   */
  Stranded stranded(TaskWorktree worktree, List<String> coveredCommits);

  /**
   * Removes the worktree and the local branch when the branch's tip is in the base (or in a merged pull
   * request's head) and the worktree is clean; otherwise keeps everything and says why. Never throws for a
   * git failure: that is a reason to keep.
   */
  ReclaimResult reclaim(TaskWorktree worktree, List<String> mergedPrHeads);

  /**
   * What {@link #reclaim} would do now, removing nothing: {@code RECLAIMED} with the proof when it would remove the
   * workspace, {@code ALREADY_GONE}, or {@code KEPT} with the reason. The caller ends the task's processes between a
   * positive check and the reclaim, which proves everything again.
   */
  ReclaimResult check(TaskWorktree worktree, List<String> mergedPrHeads);

  SweepReport sweep(SweepRequest request);
}
