package dev.roundhouse.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryState;
import java.util.Locale;

/**
 * What is in a checkout's way: a git command holding its index lock, an unfinished merge or rebase,
 * uncommitted changes and (for a task's worktree, where they are the agent's work) untracked files.
 * A checkout that cannot be read counts as in the way.
 *
 * <p>Stateless; thread-safe.
 */
final class Checkouts {

  /**
   * @param missing  the checkout's folder or {@code .git} link is gone
   * @param obstacle a phrase ("has uncommitted changes (a.txt)") or null when clear
   * @param files    the uncommitted (and, when asked, untracked) files
   */
  record Report(boolean missing, String obstacle, List<String> files) {
    boolean clear() {
      return obstacle == null;
    }
  }

  private Checkouts() {}

  static Report inspect(Path checkout, boolean untrackedCounts) {
    try (Repository repository = JGitSupport.openWorktree(checkout)) {
      if (repository == null) {
        return new Report(true, "is missing", List.of());
      }
      if (Files.exists(repository.getDirectory().toPath().resolve("index.lock"))) {
        return new Report(false, "is busy (another git command holds its index.lock)", List.of());
      }
      if (repository.getRepositoryState() != RepositoryState.SAFE) {
        return new Report(false, "is in the middle of "
            + repository.getRepositoryState().getDescription().toLowerCase(Locale.ROOT), List.of());
      }
      Status status = Git.wrap(repository).status().call();
      TreeSet<String> files = new TreeSet<>(status.getUncommittedChanges());
      if (untrackedCounts) {
        files.addAll(status.getUntracked());
      }
      List<String> list = List.copyOf(files);
      return new Report(false, list.isEmpty() ? null : "has uncommitted changes (" + sample(list) + ")", list);
    } catch (Exception e) {
      return new Report(false, "could not be read (" + e.getMessage() + ")", List.of());
    }
  }

  static String sample(List<String> paths) {
    String shown = paths.stream().sorted().limit(5).collect(Collectors.joining(", "));
    return paths.size() > 5 ? shown + " and " + (paths.size() - 5) + " more" : shown;
  }
}
