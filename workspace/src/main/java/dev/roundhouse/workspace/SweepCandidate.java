package dev.roundhouse.workspace;

import java.time.Instant;
import java.util.List;

/**
 * A task the retention sweep may clean.
 *
 * @param worktree       the task's workspace
 * @param running        a turn is running on the task: never touched
 * @param lastActivity   when the task last changed (its age is measured from here)
 * @param mergedPrHeads  head commits of the task's merged pull requests (proof the work landed)
 */
public record SweepCandidate(TaskWorktree worktree, boolean running, Instant lastActivity, List<String> mergedPrHeads) {
  public SweepCandidate {
    mergedPrHeads = List.copyOf(mergedPrHeads);
  }
}
