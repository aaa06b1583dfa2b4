package dev.roundhouse.workspace;

/**
 * A task's branch was deleted (by hand, or by another tool): the engine never recreates it from a guess,
 * since the commits it held may be gone with it.
 *
 * <p>Immutable; thread-safe.
 */
public final class MissingBranchException extends WorkspaceException {
  private static final long serialVersionUID = 1L;
  private final String branch;

  public MissingBranchException(String repository, String branch) {
    super("branch " + branch + " of repository " + repository + " was deleted; restore it (git branch "
        + branch + " <commit>) or give the task a new workspace");
    this.branch = branch;
  }

  public String branch() {
    return branch;
  }
}
