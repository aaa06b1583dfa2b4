package dev.roundhouse.workspace;

import java.util.List;

/**
 * A pull request as its forge reports it.
 *
 * @param number     the forge's number
 * @param url        where a person opens it (a file URL for the local forge)
 * @param headCommit the commit the pull request's head points at (what a merged PR proves landed)
 */
public record PullRequest(long number, String url, String title, String base, String head, String headCommit,
    PullRequestState state, List<CheckRun> checks) {
  public PullRequest {
    checks = List.copyOf(checks);
  }
}
