package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param exists  the worktree folder is there (false after it was deleted by hand: {@code ensure} repairs it)
 * @param branch  the branch checked out in the worktree (null when detached or missing)
 * @param head    the commit checked out
 * @param clean   no uncommitted or untracked files
 * @param entries the uncommitted and untracked files
 * @param ahead   task commits not on the base
 * @param behind  base commits not on the task
 */
public record WorktreeStatus(boolean exists, String branch, String head, boolean clean, List<StatusEntry> entries,
    int ahead, int behind) {
  public WorktreeStatus {
    entries = List.copyOf(entries);
  }
}
