package dev.roundhouse.workspace;

/**
 * A forge made of a bare repository and a JSON file of pull requests beside it. Merging and closing are
 * here so tests (and a person without a hosted forge) can play the reviewer's part.
 */
public interface LocalForge extends Forge {

  /** Merges the pull request into its base in the bare repository (fast-forward, else a merge commit). */
  PullRequest merge(long number);

  /** Closes the pull request unmerged. */
  PullRequest close(long number);
}
