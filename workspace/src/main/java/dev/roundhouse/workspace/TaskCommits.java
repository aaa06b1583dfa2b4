package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param mergeBase the merge-base of the task and its base
 * @param ahead     commits on the task and not on the base
 * @param behind    commits on the base and not on the task
 * @param commits   the task's own commits, newest first
 */
public record TaskCommits(String mergeBase, int ahead, int behind, List<CommitInfo> commits) {
  public TaskCommits {
    commits = List.copyOf(commits);
  }
}
