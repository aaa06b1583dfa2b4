package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Makes a task's worktree folder ready for {@code git worktree add}, healing what a crash or a hand left
 * behind, and refusing whatever might hold someone's work.
 *
 * <ul>
 *   <li>registered, folder gone: the registration is dropped ({@code git worktree remove} of that one entry,
 *       never a repository-wide prune);
 *   <li>registered, folder there, locked "initializing": git was killed while adding it, so no one worked in
 *       it; it is removed;
 *   <li>not registered, folder empty: the folder is deleted;
 *   <li>not registered, folder with files, or registered with its {@code .git} link missing, or locked for
 *       another reason: refused with a sentence (it may hold uncommitted work).
 * </ul>
 *
 * <p>Stateless apart from its collaborators; thread-safe. Callers hold the repository's lock.
 */
final class WorktreeSlot {
  private static final String INITIALIZING = "initializing";

  private final GitCli git;

  WorktreeSlot(GitCli git) {
    this.git = git;
  }

  List<WorktreeEntry> entries(Repo repo) {
    return WorktreeEntry.parse(git.ok(repo.topLevel(), "worktree", "list", "--porcelain"));
  }

  static WorktreeEntry at(List<WorktreeEntry> entries, Path path) {
    return entries.stream().filter(entry -> samePath(entry.path(), path)).findFirst().orElse(null);
  }

  /** Whether the registered worktree at the path can be used as it is. */
  static boolean healthy(WorktreeEntry entry) {
    return entry.prunable() == null && !INITIALIZING.equals(entry.locked())
        && Files.exists(entry.path().resolve(".git"));
  }

  /** Clears the path so a worktree can be added there; returns whether anything had to be healed. */
  boolean clear(Repo repo, Path path, WorktreeEntry registered) {
    if (registered != null) {
      boolean folder = Files.exists(path);
      if (registered.locked() != null && !INITIALIZING.equals(registered.locked())) {
        throw new WorkspaceException("worktree " + path + " of repository " + repo + " is locked ("
            + registered.locked() + "); unlock it with git worktree unlock " + path);
      }
      if (folder && !INITIALIZING.equals(registered.locked())) {
        throw new WorkspaceException("worktree " + path + " of repository " + repo + " lost its .git link but its"
            + " folder is still there (it may hold work); move the folder away, then try again");
      }
      git.ok(repo.topLevel(), "worktree", "remove", "--force", "--force", path.toString());
      return true;
    }
    if (!Files.exists(path)) {
      return false;
    }
    if (!isEmptyFolder(path)) {
      throw new WorkspaceException("folder " + path + " is in the way of a worktree of repository " + repo
          + " and is not one of its worktrees (it may hold work); move it away, then try again");
    }
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new WorkspaceException("could not delete the empty folder " + path + " for a worktree of repository "
          + repo + ": " + e.getMessage(), e);
    }
    return true;
  }

  private static boolean isEmptyFolder(Path path) {
    if (!Files.isDirectory(path)) {
      return false;
    }
    try (Stream<Path> children = Files.list(path)) {
      return children.findAny().isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  static boolean samePath(Path a, Path b) {
    return canonical(a).equals(canonical(b));
  }

  static Path canonical(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      Path parent = absolute.getParent();
      return parent == null || parent.equals(absolute) ? absolute : canonical(parent).resolve(absolute.getFileName());
    }
  }
}
