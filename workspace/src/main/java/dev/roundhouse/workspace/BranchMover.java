package dev.roundhouse.workspace;

import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Moves a branch forward to a commit that contains its tip, and only forward. When no checkout has the branch,
 * {@code git update-ref} compares and swaps the ref (it fails if the branch moved meanwhile). When a checkout
 * has it (the user's main checkout, or a task's worktree), that checkout must be clean of tracked changes,
 * not mid-merge and not locked, and then {@code git merge --ff-only} moves ref, index and files together;
 * git itself refuses to overwrite an untracked file. Anything else is refused with a sentence and nothing moves.
 *
 * <p>Stateless; thread-safe. Callers hold the repository's lock.
 */
final class BranchMover {
  private final GitCli git;

  BranchMover(GitCli git) {
    this.git = git;
  }

  /** Returns null when the branch moved, else why it did not. */
  String fastForward(Repo repo, String branch, ObjectId from, ObjectId to, String why, boolean requireClean) {
    Path checkout;
    try {
      checkout = checkoutOf(repo, branch);
    } catch (WorkspaceException e) {
      return e.getMessage();
    }
    GitResult result;
    if (checkout == null) {
      result = git.run(repo.topLevel(), "update-ref", "-m", why, "refs/heads/" + branch, to.name(), from.name());
    } else {
      Checkouts.Report report = Checkouts.inspect(checkout, false);
      String dirty = requireClean || report.files().isEmpty() ? report.obstacle() : null;
      if (dirty != null) {
        return branch + " is checked out in " + checkout + ", which " + dirty + "; it was left at "
            + JGitSupport.abbreviate(from);
      }
      result = git.run(checkout, "merge", "--ff-only", "--no-stat", "-q", to.name());
    }
    return result.ok() ? null : "could not move " + branch + " forward in repository " + repo + ": " + result.why();
  }

  /** The checkout that has the branch, or null. */
  Path checkoutOf(Repo repo, String branch) {
    String porcelain = git.ok(repo.topLevel(), "worktree", "list", "--porcelain");
    return WorktreeEntry.parse(porcelain).stream()
        .filter(entry -> branch.equals(entry.branch()) && !entry.bare())
        .map(WorktreeEntry::path).findFirst().orElse(null);
  }
}
