package dev.roundhouse.workspace;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fetches a base branch from its remote, at most once per freshness window per repository and branch (a
 * failed attempt included), so twenty tasks starting together fetch once. The remote-tracking ref follows the remote even when it was
 * force-pushed (that is how a rewritten base becomes visible); local branches are never touched here.
 *
 * <p>Thread-safe; callers hold the repository's lock, so two fetches of one repository never overlap.
 */
final class Fetcher {
  private final GitCli git;
  private final Clock clock;
  private final Duration freshness;
  private final Map<String, Instant> lastFetch = new ConcurrentHashMap<>();

  Fetcher(GitCli git, Clock clock, Duration freshness) {
    this.git = git;
    this.clock = clock;
    this.freshness = freshness;
  }

  /** Fetches, or returns a sentence saying why it could not (the caller goes on with what it has). */
  String fetch(Repo repo, String remote, String base) {
    String key = repo.commonDir() + " " + remote + " " + base;
    Instant last = lastFetch.get(key);
    Instant now = clock.instant();
    if (last != null && last.plus(freshness).isAfter(now)) {
      return null;
    }
    // A failed fetch counts too: twenty tasks must not each wait out an unreachable remote's timeout.
    lastFetch.put(key, now);
    try {
      GitResult result = git.run(repo.topLevel(), git.fetchTimeout, Map.of(), List.of("fetch", "--no-tags",
          "--no-write-fetch-head", remote, "+refs/heads/" + base + ":refs/remotes/" + remote + "/" + base));
      if (!result.ok()) {
        return "could not fetch " + base + " from " + remote + " in repository " + repo + ": " + result.why();
      }
    } catch (WorkspaceException e) {
      return e.getMessage();
    }
    return null;
  }
}
