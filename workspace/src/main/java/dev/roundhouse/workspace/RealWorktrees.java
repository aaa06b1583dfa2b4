package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Cuts, reuses and repairs task worktrees. The repository is located outside the lock; everything that reads
 * or writes worktree registrations and branches runs under the repository's lock, so twenty tasks starting
 * at once queue instead of racing on git's lock files.
 *
 * <p>Thread-safe.
 */
final class RealWorktrees implements Worktrees {
  private final WorkspaceConfig config;
  private final GitCli git;
  private final RepoLocator locator;
  private final RepositoryLocks locks;
  private final CutPoint cutPoint;
  private final WorktreeSlot slot;

  RealWorktrees(WorkspaceConfig config, GitCli git, RepoLocator locator, RepositoryLocks locks, CutPoint cutPoint) {
    this.config = config;
    this.git = git;
    this.locator = locator;
    this.locks = locks;
    this.cutPoint = cutPoint;
    this.slot = new WorktreeSlot(git);
  }

  @Override
  public EnsureResult ensure(WorktreeRequest request) {
    Repo repo = locator.locate(request.repository());
    Path path = worktreePath(request.project(), request.taskId());
    return locks.with(repo, () -> ensureLocked(repo, request, path));
  }

  @Override
  public RemoteRewrite fetchBase(String repository, String baseBranch) {
    Repo repo = locator.locate(repository);
    return locks.with(repo, () -> cutPoint.fetch(repo, baseBranch));
  }

  private EnsureResult ensureLocked(Repo repo, WorktreeRequest request, Path path) {
    String base;
    String branch;
    ObjectId tip;
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      base = request.baseBranch() != null ? request.baseBranch() : BaseBranches.defaultBase(main);
      branch = request.branch() != null ? request.branch()
          : BranchNames.branch(config.branchPrefix(), request.taskId(), request.title());
      if (!Repository.isValidRefName(Constants.R_HEADS + branch)) {
        throw new WorkspaceException("branch name " + branch + " for task " + request.taskId()
            + " is not a valid git branch name in repository " + repo);
      }
      tip = JGitSupport.branch(main, branch);
    }
    List<WorktreeEntry> entries = slot.entries(repo);
    WorktreeEntry registered = WorktreeSlot.at(entries, path);
    List<String> notes = new ArrayList<>();
    if (tip == null) {
      if (request.branch() != null) {
        throw new MissingBranchException(repo.toString(), branch);
      }
      if (registered != null && WorktreeSlot.healthy(registered)) {
        throw new WorkspaceException("worktree " + path + " of repository " + repo + " already holds "
            + (registered.branch() == null ? "a detached HEAD" : "branch " + registered.branch())
            + ", not task " + request.taskId() + "'s new branch " + branch + "; move it away, then try again");
      }
      slot.clear(repo, path, registered);
      CutPoint.Choice cut = cutPoint.choose(repo, base);
      notes.addAll(cut.notes());
      createParent(repo, path);
      git.ok(repo.topLevel(), "worktree", "add", "--no-track", "-b", branch, path.toString(), cut.commit().name());
      EnsureResult created = result(request, repo, branch, path, base, cut.commit().name(), EnsureOutcome.CREATED, notes);
      return new EnsureResult(created.worktree(), created.outcome(), created.workingDirectory(), created.notes(), cut.rewrite());
    }
    WorktreeEntry elsewhere = entries.stream()
        .filter(entry -> branch.equals(entry.branch()) && !WorktreeSlot.samePath(entry.path(), path))
        .findFirst().orElse(null);
    if (elsewhere != null && WorktreeSlot.healthy(elsewhere)) {
      throw new WorkspaceException("branch " + branch + " of task " + request.taskId() + " is checked out in "
          + elsewhere.path() + "; check out another branch there so the task gets its own worktree at " + path);
    }
    if (registered != null && WorktreeSlot.healthy(registered)) {
      if (!branch.equals(registered.branch())) {
        notes.add("worktree " + path + " has " + (registered.branch() == null ? "a detached HEAD"
            : registered.branch()) + " checked out, not the task's branch " + branch);
      }
      return result(request, repo, branch, path, base, recordedBase(request, repo, base, tip),
          EnsureOutcome.REUSED, notes);
    }
    if (elsewhere != null) {
      slot.clear(repo, elsewhere.path(), elsewhere);
    }
    slot.clear(repo, path, registered);
    createParent(repo, path);
    git.ok(repo.topLevel(), "worktree", "add", path.toString(), branch);
    notes.add("worktree " + path + " was missing or half-created and was restored from branch " + branch);
    return result(request, repo, branch, path, base, recordedBase(request, repo, base, tip),
        EnsureOutcome.REPAIRED, notes);
  }

  private Path worktreePath(String project, long taskId) {
    Path root = WorktreeSlot.canonical(config.worktreesRoot());
    return root.resolve(BranchNames.folder(project)).resolve(Long.toString(taskId));
  }

  private static void createParent(Repo repo, Path path) {
    try {
      Files.createDirectories(path.getParent());
    } catch (IOException e) {
      throw new WorkspaceException("could not create the worktrees folder " + path.getParent() + " for repository "
          + repo + ": " + e.getMessage(), e);
    }
  }

  /** The recorded base commit, or (for a branch found without one) its merge-base with the base. */
  private static String recordedBase(WorktreeRequest request, Repo repo, String base, ObjectId tip) {
    if (request.baseCommit() != null) {
      return request.baseCommit();
    }
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      ObjectId baseTip = JGitSupport.branch(main, base);
      return baseTip == null ? null : JGitSupport.name(JGitSupport.mergeBase(main, tip, baseTip));
    } catch (IOException e) {
      return null;
    }
  }

  private static EnsureResult result(WorktreeRequest request, Repo repo, String branch, Path path, String base,
      String baseCommit, EnsureOutcome outcome, List<String> notes) {
    TaskWorktree worktree = new TaskWorktree(request.project(), request.taskId(), repo.topLevel().toString(),
        branch, path.toString(), base, baseCommit);
    return new EnsureResult(worktree, outcome, path.resolve(repo.projectSubPath()).toString(), notes);
  }

  @Override
  public boolean isRepository(String path) {
    return locator.isRepository(path);
  }

  @Override
  public BaseRewrite baseRewrite(TaskWorktree worktree) {
    return BaseRewrites.check(worktree);
  }
}
