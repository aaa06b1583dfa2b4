package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.time.Clock;

/**
 * The workspace engine: per-task git worktrees, their diffs, merging, pull requests and cleanup. One per hub.
 * Thread-safe; see {@code docs/workspace.md} for its locks and fail-closed rules.
 */
public interface Workspace {

  static Workspace create(WorkspaceConfig config, Clock clock) {
    return new Engine(config, clock);
  }

  Worktrees worktrees();

  Changes changes();

  Merges merges();

  Cleanup cleanup();

  /** A forge on a bare repository; pull requests are recorded in {@code <bare>.prs.json} beside it. */
  LocalForge localForge(Path bareRepository);

  /** A forge that shells out to the GitHub CLI ({@code gh}, or the given executable). */
  Forge githubForge(String ghExecutable);
}
