package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Opening repositories with JGit and the few ref and ancestry questions every part asks. Each call hands out the
 * shared, already open {@link Repository} of its folder ({@link OpenRepositories}; closed by the caller, which only
 * releases it), so pack indexes are read once.
 *
 * <p>Stateless; thread-safe.
 */
final class JGitSupport {

  private JGitSupport() {}

  /** The repository behind a main checkout's top level (refs and objects shared by all worktrees). */
  static Repository openMain(Path topLevel) {
    return OpenRepositories.open(topLevel, () -> open(topLevel, "repository " + topLevel));
  }

  /** A linked worktree's own view (its HEAD and index), or null when its folder or {@code .git} file is gone. */
  static Repository openWorktree(Path worktree) {
    if (!Files.isRegularFile(worktree.resolve(Constants.DOT_GIT)) && !Files.isDirectory(worktree.resolve(Constants.DOT_GIT))) {
      return null;
    }
    return OpenRepositories.open(worktree, () -> open(worktree, "worktree " + worktree));
  }

  private static Repository open(Path workTree, String what) {
    try {
      // setWorkTree, never findGitDir: a broken worktree must not silently resolve to a repository above it.
      return new FileRepositoryBuilder().setWorkTree(workTree.toFile()).setMustExist(true).build();
    } catch (IOException | IllegalArgumentException e) {
      throw new WorkspaceException("could not open " + what + " with JGit: " + e.getMessage(), e);
    }
  }

  /** The commit a ref or id names, or null when there is none. */
  static ObjectId resolve(Repository repository, String revision) {
    try {
      Ref ref = repository.exactRef(revision);
      if (ref != null) {
        return ref.getObjectId();
      }
      ObjectId id = repository.resolve(revision + "^{commit}");
      return id;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  static ObjectId branch(Repository repository, String branch) {
    try {
      Ref ref = repository.exactRef(Constants.R_HEADS + branch);
      return ref == null ? null : ref.getObjectId();
    } catch (IOException e) {
      throw new WorkspaceException("could not read branch " + branch + " of repository "
          + repository.getWorkTree() + ": " + e.getMessage(), e);
    }
  }

  /** Whether {@code ancestor} is {@code descendant} or one of its ancestors. */
  static boolean isAncestor(Repository repository, ObjectId ancestor, ObjectId descendant) throws IOException {
    if (ancestor.equals(descendant)) {
      return true;
    }
    try (RevWalk walk = new RevWalk(repository)) {
      return walk.isMergedInto(walk.parseCommit(ancestor), walk.parseCommit(descendant));
    }
  }

  static ObjectId mergeBase(Repository repository, ObjectId a, ObjectId b) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      walk.setRevFilter(RevFilter.MERGE_BASE);
      walk.markStart(walk.parseCommit(a));
      walk.markStart(walk.parseCommit(b));
      RevCommit base = walk.next();
      return base == null ? null : base.copy();
    }
  }

  static String name(ObjectId id) {
    return id == null ? null : id.name();
  }

  static String abbreviate(ObjectId id) {
    return id.abbreviate(10).name();
  }
}
