package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param worktree         the task's workspace, to record
 * @param outcome          what had to be done
 * @param workingDirectory where the task's agents run (the project's sub-folder inside the worktree)
 * @param notes            sentences worth telling the user ("could not fetch origin, cut from the local main")
 */
public record EnsureResult(TaskWorktree worktree, EnsureOutcome outcome, String workingDirectory, List<String> notes) {
  public EnsureResult {
    notes = List.copyOf(notes);
  }
}
