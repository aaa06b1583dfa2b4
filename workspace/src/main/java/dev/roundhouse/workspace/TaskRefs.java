package dev.roundhouse.workspace;

import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * The two tips every read starts from: the task branch's and the base's (the local base, or the remote's
 * when there is no local one).
 *
 * <p>Immutable; thread-safe.
 */
record TaskRefs(ObjectId task, ObjectId base) {

  static TaskRefs of(Repository main, TaskWorktree worktree) {
    ObjectId task = JGitSupport.branch(main, worktree.branch());
    if (task == null) {
      throw new MissingBranchException(worktree.repository(), worktree.branch());
    }
    return new TaskRefs(task, baseTip(main, worktree));
  }

  static ObjectId baseTip(Repository main, TaskWorktree worktree) {
    ObjectId base = JGitSupport.branch(main, worktree.baseBranch());
    if (base == null) {
      String remote = BaseBranches.remoteOf(main, worktree.baseBranch());
      base = remote == null ? null : JGitSupport.resolve(main, BaseBranches.remoteRef(remote, worktree.baseBranch()));
    }
    if (base == null) {
      throw new WorkspaceException("base branch " + worktree.baseBranch() + " of task " + worktree.taskId()
          + " does not exist in repository " + worktree.repository());
    }
    return base;
  }

  static Repository openMain(TaskWorktree worktree) {
    return JGitSupport.openMain(Path.of(worktree.repository()));
  }
}
