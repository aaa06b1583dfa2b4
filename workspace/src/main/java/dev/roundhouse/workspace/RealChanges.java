package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Status, diff, commits and merge-base of a task, read with JGit; no lock, no child process. A worktree whose
 * folder is gone still has a diff and commits (its branch's); its uncommitted part is then empty.
 *
 * <p>Line counts of file pairs already counted are kept ({@link CountCache}), so reading a diff again counts only
 * the files that changed since.
 *
 * <p>Thread-safe: every call takes the shared repositories of its folders ({@link OpenRepositories}) and releases them.
 */
final class RealChanges implements Changes {
  /** A wide diff is counted on up to this many threads at once: the machine's cores, at most four. */
  private static final int SLICES = Math.min(4, Runtime.getRuntime().availableProcessors());
  /** Files whose counts are kept between reads: a few MB at most. */
  private static final int COUNTS_KEPT = 16_384;

  private final CountCache counted = new CountCache(COUNTS_KEPT);

  @Override
  public WorktreeStatus status(TaskWorktree worktree) {
    try (Repository main = TaskRefs.openMain(worktree); Repository work = JGitSupport.openWorktree(Path.of(worktree.path()))) {
      TaskRefs refs = TaskRefs.of(main, worktree);
      int ahead = count(main, refs.task(), refs.base());
      int behind = count(main, refs.base(), refs.task());
      if (work == null) {
        return new WorktreeStatus(false, null, refs.task().name(), true, List.of(), ahead, behind);
      }
      String full = work.getFullBranch();
      String branch = full != null && full.startsWith(Constants.R_HEADS) ? full.substring(Constants.R_HEADS.length()) : null;
      ObjectId head = work.resolve(Constants.HEAD);
      List<StatusEntry> entries = StatusEntries.of(Git.wrap(work).status().call());
      return new WorktreeStatus(true, branch, JGitSupport.name(head), entries.isEmpty(), entries, ahead, behind);
    } catch (IOException | GitAPIException e) {
      throw failure("status", worktree, e);
    }
  }

  @Override
  public TaskDiff diff(TaskWorktree worktree, boolean withHunks) {
    try (Repository main = TaskRefs.openMain(worktree); Repository work = JGitSupport.openWorktree(Path.of(worktree.path()))) {
      TaskRefs refs = TaskRefs.of(main, worktree);
      // The worktree's status (a fifth of a wide diff's time) is read on its own thread while the diff starts.
      FutureTask<Set<String>> dirty = new FutureTask<>(() -> work == null ? Set.of() : dirtyPaths(work, refs.task()));
      Thread.ofVirtual().name("workspace-status").start(dirty);
      try (DiffReader reader = new DiffReader(work == null ? main : work,
          work == null ? null : Path.of(worktree.path()), withHunks, SLICES, counted)) {
        ObjectId mergeBase = JGitSupport.mergeBase(main, refs.task(), refs.base());
        List<FileChange> files = reader.read(mergeBase, refs.task(), dirty);
        int added = files.stream().mapToInt(FileChange::added).sum();
        int removed = files.stream().mapToInt(FileChange::removed).sum();
        return new TaskDiff(JGitSupport.name(mergeBase), refs.task().name(), worktree.baseBranch(), refs.base().name(),
            files, added, removed);
      } finally {
        awaitQuietly(dirty); // the status never outlives the read that started it
      }
    } catch (IOException e) {
      throw failure("diff", worktree, e);
    }
  }

  @Override
  public TaskCommits commits(TaskWorktree worktree) {
    try (Repository main = TaskRefs.openMain(worktree)) {
      TaskRefs refs = TaskRefs.of(main, worktree);
      List<CommitInfo> commits = new ArrayList<>();
      try (RevWalk walk = new RevWalk(main)) {
        walk.markStart(walk.parseCommit(refs.task()));
        walk.markUninteresting(walk.parseCommit(refs.base()));
        for (RevCommit commit : walk) {
          commits.add(info(commit));
        }
      }
      ObjectId mergeBase = JGitSupport.mergeBase(main, refs.task(), refs.base());
      return new TaskCommits(JGitSupport.name(mergeBase), commits.size(), count(main, refs.base(), refs.task()), commits);
    } catch (IOException e) {
      throw failure("log", worktree, e);
    }
  }

  @Override
  public String mergeBase(TaskWorktree worktree) {
    try (Repository main = TaskRefs.openMain(worktree)) {
      TaskRefs refs = TaskRefs.of(main, worktree);
      return JGitSupport.name(JGitSupport.mergeBase(main, refs.task(), refs.base()));
    } catch (IOException e) {
      throw failure("merge-base", worktree, e);
    }
  }

  /** The worktree's uncommitted paths, when it has the task's tip checked out (else its files are not the task's). */
  private static Set<String> dirtyPaths(Repository work, ObjectId taskTip) throws IOException, GitAPIException {
    if (!taskTip.equals(work.resolve(Constants.HEAD))) {
      return Set.of();
    }
    Status status = Git.wrap(work).status().call();
    Set<String> dirty = new TreeSet<>(status.getUncommittedChanges());
    dirty.addAll(status.getUntracked());
    return dirty;
  }

  private static void awaitQuietly(FutureTask<?> task) {
    try {
      task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // the read has failed already, or reports this failure itself
    }
  }

  /** Commits reachable from {@code from} and not from {@code not}. */
  static int count(Repository repository, ObjectId from, ObjectId not) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      walk.markStart(walk.parseCommit(from));
      walk.markUninteresting(walk.parseCommit(not));
      int count = 0;
      for (RevCommit ignored : walk) {
        count++;
      }
      return count;
    }
  }

  static CommitInfo info(RevCommit commit) {
    var author = commit.getAuthorIdent();
    return new CommitInfo(commit.name(), commit.abbreviate(10).name(), author.getName(), author.getEmailAddress(),
        author.getWhenAsInstant(), commit.getShortMessage());
  }

  private static WorkspaceException failure(String what, TaskWorktree worktree, Exception e) {
    return new WorkspaceException("could not read the " + what + " of task " + worktree.taskId() + " (branch "
        + worktree.branch() + ") in repository " + worktree.repository() + ": " + e.getMessage(), e);
  }
}
