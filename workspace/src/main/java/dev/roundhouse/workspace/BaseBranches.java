package dev.roundhouse.workspace;

import java.io.IOException;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;

/**
 * Which branch a task starts from when the project names none, and which remote follows it.
 *
 * <p>Stateless; thread-safe.
 */
final class BaseBranches {

  private BaseBranches() {}

  /** The remote's default branch ({@code origin/HEAD}), else the main checkout's branch, else {@code main}. */
  static String defaultBase(Repository repository) {
    try {
      Ref remoteHead = repository.exactRef(Constants.R_REMOTES + "origin/" + Constants.HEAD);
      if (remoteHead != null && remoteHead.isSymbolic()) {
        return Repository.shortenRefName(remoteHead.getTarget().getName()).replaceFirst("^origin/", "");
      }
      String full = repository.getFullBranch();
      if (full != null && full.startsWith(Constants.R_HEADS)) {
        return full.substring(Constants.R_HEADS.length());
      }
    } catch (IOException e) {
      // Fall through to the conventional name; a missing branch is reported where it is used.
    }
    return "main";
  }

  /** The remote the base branch tracks, else {@code origin} when there is one, else null. */
  static String remoteOf(Repository repository, String base) {
    String tracked = repository.getConfig().getString("branch", base, "remote");
    Set<String> remotes = repository.getConfig().getSubsections("remote");
    if (tracked != null && remotes.contains(tracked)) {
      return tracked;
    }
    return remotes.contains("origin") ? "origin" : null;
  }

  static String remoteRef(String remote, String base) {
    return Constants.R_REMOTES + remote + "/" + base;
  }
}
