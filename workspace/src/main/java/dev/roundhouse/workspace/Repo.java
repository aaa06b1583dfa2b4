package dev.roundhouse.workspace;

import java.nio.file.Path;

/**
 * Where a repository lives: its main work tree's top level, the git directory shared by all its worktrees
 * (the lock key), and where the project folder sits inside the work tree (a project may be a sub-folder of a
 * monorepo).
 *
 * <p>Immutable; thread-safe.
 */
record Repo(Path topLevel, Path commonDir, Path projectSubPath) {

  @Override
  public String toString() {
    return topLevel.toString();
  }
}
