package dev.roundhouse.workspace;

import java.util.List;

/**
 * A task's changes against its merge-base with the base branch, uncommitted work included.
 *
 * @param mergeBase  the merge-base commit
 * @param head       the task branch's tip
 * @param baseBranch the base branch
 * @param baseTip    the base branch's tip
 * @param files      the changed files, by path
 * @param added      total lines added
 * @param removed    total lines removed
 */
public record TaskDiff(String mergeBase, String head, String baseBranch, String baseTip, List<FileChange> files,
    int added, int removed) {
  public TaskDiff {
    files = List.copyOf(files);
  }
}
