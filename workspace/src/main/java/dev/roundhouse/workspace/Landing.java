package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * The questions cleanup asks before it may remove anything: which task commits are not yet contained in the
 * base (local or remote-tracking) nor in given commits (pull request heads), and is there positive proof the
 * branch's tip landed. A commit id that is not in the repository proves nothing.
 *
 * <p>Stateless; thread-safe.
 */
final class Landing {

  private Landing() {}

  /** The commits reachable from {@code tips} (the branch, the worktree's HEAD) not contained in the base nor in any of {@code covering}, newest first. */
  static List<CommitInfo> unlanded(Repository main, TaskWorktree worktree, List<ObjectId> tips, List<String> covering)
      throws IOException {
    List<CommitInfo> commits = new ArrayList<>();
    try (RevWalk walk = new RevWalk(main)) {
      for (ObjectId tip : tips) {
        walk.markStart(walk.parseCommit(tip));
      }
      for (ObjectId landed : landedTips(main, worktree, covering)) {
        walk.markUninteresting(walk.parseCommit(landed));
      }
      for (RevCommit commit : walk) {
        commits.add(RealChanges.info(commit));
      }
    }
    return commits;
  }

  /** A sentence proving the tip landed, or null when there is no proof. */
  static String proof(Repository main, TaskWorktree worktree, ObjectId tip, List<String> mergedPrHeads)
      throws IOException {
    String base = worktree.baseBranch();
    ObjectId local = JGitSupport.branch(main, base);
    if (local != null && JGitSupport.isAncestor(main, tip, local)) {
      return "its tip " + JGitSupport.abbreviate(tip) + " is in " + base;
    }
    String remote = BaseBranches.remoteOf(main, base);
    ObjectId remoteTip = remote == null ? null : JGitSupport.resolve(main, BaseBranches.remoteRef(remote, base));
    if (remoteTip != null && JGitSupport.isAncestor(main, tip, remoteTip)) {
      return "its tip " + JGitSupport.abbreviate(tip) + " is in " + remote + "/" + base;
    }
    for (String head : mergedPrHeads) {
      ObjectId id = JGitSupport.resolve(main, head);
      if (id != null && JGitSupport.isAncestor(main, tip, id)) {
        return "its tip " + JGitSupport.abbreviate(tip) + " is in merged pull request head " + JGitSupport.abbreviate(id);
      }
    }
    return null;
  }

  private static List<ObjectId> landedTips(Repository main, TaskWorktree worktree, List<String> covering) {
    List<ObjectId> tips = new ArrayList<>();
    String base = worktree.baseBranch();
    ObjectId local = JGitSupport.branch(main, base);
    if (local != null) {
      tips.add(local);
    }
    String remote = BaseBranches.remoteOf(main, base);
    ObjectId remoteTip = remote == null ? null : JGitSupport.resolve(main, BaseBranches.remoteRef(remote, base));
    if (remoteTip != null) {
      tips.add(remoteTip);
    }
    for (String commit : covering) {
      ObjectId id = JGitSupport.resolve(main, commit);
      if (id != null) {
        tips.add(id);
      }
    }
    return tips;
  }

  static Repository open(TaskWorktree worktree) {
    return JGitSupport.openMain(Path.of(worktree.repository()));
  }
}
