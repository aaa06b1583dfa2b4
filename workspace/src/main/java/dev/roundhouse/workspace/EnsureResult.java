package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param worktree         the task's workspace, to record
 * @param outcome          what had to be done
 * @param workingDirectory where the task's agents run (the project's sub-folder inside the worktree)
 * @param notes            sentences worth telling the user ("could not fetch origin, cut from the local main")
 * @param remoteRewrite    the rewrite of the base on its remote that the fetch before cutting showed, or null
 */
public record EnsureResult(TaskWorktree worktree, EnsureOutcome outcome, String workingDirectory, List<String> notes,
    RemoteRewrite remoteRewrite) {
  public EnsureResult {
    notes = List.copyOf(notes);
  }

  public EnsureResult(TaskWorktree worktree, EnsureOutcome outcome, String workingDirectory, List<String> notes) {
    this(worktree, outcome, workingDirectory, notes, null);
  }
}
