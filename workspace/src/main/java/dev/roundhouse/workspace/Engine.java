package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.time.Clock;

/**
 * Wires the engine's parts around the shared pieces: one git runner, one set of repository locks, one fetch
 * memory. Thread-safe; holds no lock of its own.
 */
final class Engine implements Workspace {
  private final GitCli git;
  private final MergeTree mergeTree;
  private final Clock clock;
  private final Worktrees worktrees;
  private final Changes changes;
  private final Merges merges;
  private final Cleanup cleanup;
  final RepositoryLocks locks = new RepositoryLocks();

  Engine(WorkspaceConfig config, Clock clock) {
    this.clock = clock;
    this.git = new GitCli(config);
    this.mergeTree = new MergeTree(git, clock, config);
    RepoLocator locator = new RepoLocator(git);
    BranchMover mover = new BranchMover(git);
    CutPoint cutPoint = new CutPoint(new Fetcher(git, clock, config.fetchFreshness()), mover);
    this.worktrees = new RealWorktrees(config, git, locator, locks, cutPoint);
    this.changes = new RealChanges();
    this.merges = new RealMerges(locator, locks, mergeTree, mover, cutPoint);
    this.cleanup = new RealCleanup(locator, locks, new Reclaimer(git), clock);
  }

  @Override
  public Worktrees worktrees() {
    return worktrees;
  }

  @Override
  public Changes changes() {
    return changes;
  }

  @Override
  public Merges merges() {
    return merges;
  }

  @Override
  public Cleanup cleanup() {
    return cleanup;
  }

  @Override
  public LocalForge localForge(Path bareRepository) {
    return new RealLocalForge(bareRepository, git, mergeTree, clock);
  }

  @Override
  public Forge githubForge(String ghExecutable) {
    return new GhForge(ghExecutable == null ? "gh" : ghExecutable, git);
  }
}
