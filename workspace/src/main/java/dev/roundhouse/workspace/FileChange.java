package dev.roundhouse.workspace;

import java.util.List;

/**
 * One file of a task's diff.
 *
 * @param path        the path in the task (the old path for a deletion)
 * @param oldPath     the path at the merge-base (differs from {@code path} for a rename)
 * @param kind        how it changed
 * @param binary      a binary file: no line counts, no hunks
 * @param added       lines added
 * @param removed     lines removed
 * @param uncommitted the file has changes not yet committed on the task's branch (index or work tree)
 * @param hunks       the hunks, when asked for
 */
public record FileChange(String path, String oldPath, ChangeKind kind, boolean binary, int added, int removed,
    boolean uncommitted, List<Hunk> hunks) {
  public FileChange {
    hunks = List.copyOf(hunks);
  }
}
