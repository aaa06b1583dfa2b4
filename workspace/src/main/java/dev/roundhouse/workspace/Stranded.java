package dev.roundhouse.workspace;

import java.util.List;

/**
 * Work of a task that would be lost if its workspace went away.
 *
 * @param stranded    true when anything below is non-empty, or when the engine could not tell (fail closed)
 * @param uncommitted uncommitted or untracked files in the worktree
 * @param commits     task commits neither the base nor a given pull request covers, newest first
 * @param message     a sentence naming the files and commits, or why it could not tell
 */
public record Stranded(boolean stranded, List<String> uncommitted, List<CommitInfo> commits, String message) {
  public Stranded {
    uncommitted = List.copyOf(uncommitted);
    commits = List.copyOf(commits);
  }
}
