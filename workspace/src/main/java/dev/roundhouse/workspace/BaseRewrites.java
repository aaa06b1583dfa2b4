package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Base rewrite detection: the commit a task was cut from must still be contained in its base, locally and
 * on the remote-tracking ref (a force-push upstream shows there after a fetch; the local base is never
 * rewritten by the engine). A rewritten base is reported, never acted on.
 *
 * <p>Stateless; thread-safe.
 */
final class BaseRewrites {

  private BaseRewrites() {}

  static BaseRewrite check(TaskWorktree worktree) {
    String recorded = worktree.baseCommit();
    String base = worktree.baseBranch();
    if (recorded == null) {
      return new BaseRewrite(false, null, base, null, "task " + worktree.taskId()
          + " has no recorded base commit, so a rewrite of " + base + " cannot be detected");
    }
    try (Repository main = JGitSupport.openMain(Path.of(worktree.repository()))) {
      ObjectId recordedId = JGitSupport.resolve(main, recorded);
      String remote = BaseBranches.remoteOf(main, base);
      String[] refs = remote == null ? new String[] {base} : new String[] {base, remote + "/" + base};
      String lastRef = base;
      ObjectId lastTip = null;
      for (String ref : refs) {
        ObjectId tip = ref.equals(base) ? JGitSupport.branch(main, base)
            : JGitSupport.resolve(main, BaseBranches.remoteRef(remote, base));
        if (tip == null) {
          continue;
        }
        lastRef = ref;
        lastTip = tip;
        if (recordedId == null || !JGitSupport.isAncestor(main, recordedId, tip)) {
          return new BaseRewrite(true, recorded, ref, tip.name(), ref + " was rewritten under task "
              + worktree.taskId() + ": the commit it was cut from, " + recorded.substring(0, Math.min(10,
              recorded.length())) + ", is no longer part of it; the task was not rebased");
        }
      }
      return new BaseRewrite(false, recorded, lastRef, JGitSupport.name(lastTip), lastTip == null
          ? "base branch " + base + " is missing in repository " + worktree.repository()
          : base + " still contains the commit task " + worktree.taskId() + " was cut from");
    } catch (IOException e) {
      throw new WorkspaceException("could not check base " + base + " of repository " + worktree.repository()
          + " for a rewrite: " + e.getMessage(), e);
    }
  }
}
