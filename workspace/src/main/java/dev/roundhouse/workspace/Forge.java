package dev.roundhouse.workspace;

/**
 * Where pull requests live: GitHub through the {@code gh} CLI, or a local bare repository (tests, offline
 * use). Implementations say which thread-safety they offer; both here are thread-safe.
 */
public interface Forge {

  /** Pushes the head branch and opens a pull request; the failure is a sentence saying what to configure. */
  PullRequest create(PullRequestDraft draft);

  /** The pull request's state and checks now. */
  PullRequest status(String repository, long number);
}
