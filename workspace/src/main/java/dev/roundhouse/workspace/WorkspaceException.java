package dev.roundhouse.workspace;

/**
 * The root unchecked exception of the workspace engine. Its message is a sentence that names the repository
 * and what failed ("git worktree add failed in repository /src/web: fatal: ..."), fit to show a user as is.
 *
 * <p>Immutable; thread-safe.
 */
public class WorkspaceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public WorkspaceException(String message) {
    super(message);
  }

  public WorkspaceException(String message, Throwable cause) {
    super(message, cause);
  }
}
