package dev.roundhouse.workspace;

/**
 * The project's path is not inside a git work tree: the caller keeps running the task in the project's own
 * folder and says so.
 *
 * <p>Immutable; thread-safe.
 */
public final class NotARepositoryException extends WorkspaceException {
  private static final long serialVersionUID = 1L;
  private final String path;

  public NotARepositoryException(String path) {
    super(path + " is not inside a git repository, so its tasks run in the project folder itself");
    this.path = path;
  }

  public String path() {
    return path;
  }
}
