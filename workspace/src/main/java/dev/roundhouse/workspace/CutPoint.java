package dev.roundhouse.workspace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Which commit of the base a task starts from (or syncs to): the freshest of the local base and the remote's,
 * after a fetch when the project has a remote. When the remote is ahead, the task takes the remote tip and
 * the user's local base is fast-forwarded to it if that is safe, never forced. When the local base is ahead
 * or the two diverged, the local base wins: it holds the user's unpushed work.
 *
 * <p>Stateless apart from its collaborators; thread-safe. Callers hold the repository's lock.
 */
final class CutPoint {

  /**
   * The chosen commit, the ref it came from ({@code main} or {@code origin/main}), what to tell the user, and the
   * rewrite of the remote's base the fetch showed (or null).
   */
  record Choice(ObjectId commit, String ref, List<String> notes, RemoteRewrite rewrite) {}

  private final Fetcher fetcher;
  private final BranchMover mover;

  CutPoint(Fetcher fetcher, BranchMover mover) {
    this.fetcher = fetcher;
    this.mover = mover;
  }

  /** Fetches {@code base} from its remote, if it has one: the rewrite the fetch showed, or null. Caller holds the lock. */
  RemoteRewrite fetch(Repo repo, String base) {
    String remote;
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      remote = BaseBranches.remoteOf(main, base);
    }
    return remote == null ? null : fetcher.fetch(repo, remote, base).rewrite();
  }

  Choice choose(Repo repo, String base) {
    List<String> notes = new ArrayList<>();
    String remote;
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      remote = BaseBranches.remoteOf(main, base);
    }
    RemoteRewrite rewrite = null;
    if (remote != null) {
      Fetcher.Fetched fetched = fetcher.fetch(repo, remote, base);
      if (fetched.failure() != null) {
        notes.add(fetched.failure() + "; went on with what the repository already had");
      }
      if (fetched.rewrite() != null) {
        rewrite = fetched.rewrite();
        notes.add(rewrite.message());
      }
    }
    String remoteName = remote == null ? null : remote + "/" + base;
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      ObjectId local = JGitSupport.branch(main, base);
      ObjectId remoteTip = remote == null ? null : JGitSupport.resolve(main, BaseBranches.remoteRef(remote, base));
      if (local == null && remoteTip == null) {
        throw new WorkspaceException("base branch " + base + " exists neither in repository " + repo
            + (remote == null ? "" : " nor on its remote " + remote));
      }
      if (local == null) {
        return new Choice(remoteTip, remoteName, notes, rewrite);
      }
      if (remoteTip == null || remoteTip.equals(local) || JGitSupport.isAncestor(main, remoteTip, local)) {
        return new Choice(local, base, notes, rewrite);
      }
      if (JGitSupport.isAncestor(main, local, remoteTip)) {
        String left = mover.fastForward(repo, base, local, remoteTip, "roundhouse: fast-forward " + base
            + " to " + remoteName, true);
        if (left != null) {
          notes.add(left + "; the task starts from " + remoteName + " instead");
        }
        return new Choice(remoteTip, remoteName, notes, rewrite);
      }
      notes.add(base + " and " + remoteName + " have diverged in repository " + repo
          + "; the task starts from the local " + base);
      return new Choice(local, base, notes, rewrite);
    } catch (IOException e) {
      throw new WorkspaceException("could not compare " + base + " with its remote in repository " + repo + ": "
          + e.getMessage(), e);
    }
  }
}
