package dev.roundhouse.workspace;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Fetches a base branch from its remote, at most once per freshness window per repository and branch (a
 * failed attempt included), so twenty tasks starting together fetch once, and notices when the fetch shows the
 * remote's branch was rewritten. The remote-tracking ref follows the remote even when it was
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

  /**
   * What a fetch found: {@code failure} says why it could not fetch (the caller goes on with what it has), else null;
   * {@code rewrite} is set when the remote's branch was rewritten (its old tip is not an ancestor of the new one).
   */
  record Fetched(String failure, RemoteRewrite rewrite) {
    static final Fetched SKIPPED = new Fetched(null, null);
  }

  /** Fetches {@code base} from {@code remote} into its remote-tracking ref, unless it was fetched within the freshness window. */
  Fetched fetch(Repo repo, String remote, String base) {
    String key = repo.commonDir() + " " + remote + " " + base;
    Instant last = lastFetch.get(key);
    Instant now = clock.instant();
    if (last != null && last.plus(freshness).isAfter(now)) {
      return Fetched.SKIPPED;
    }
    // A failed fetch counts too: twenty tasks must not each wait out an unreachable remote's timeout.
    lastFetch.put(key, now);
    String ref = BaseBranches.remoteRef(remote, base);
    ObjectId before = tip(repo, ref);
    try {
      GitResult result = git.run(repo.topLevel(), git.fetchTimeout, Map.of(), List.of("fetch", "--no-tags",
          "--no-write-fetch-head", remote, "+refs/heads/" + base + ":refs/remotes/" + remote + "/" + base));
      if (!result.ok()) {
        return new Fetched("could not fetch " + base + " from " + remote + " in repository " + repo + ": " + result.why(), null);
      }
    } catch (WorkspaceException e) {
      return new Fetched(e.getMessage(), null);
    }
    return new Fetched(null, rewrite(repo, remote, base, before, tip(repo, ref)));
  }

  /** The rewrite the move from {@code before} to {@code after} shows, or null (none, a fast-forward, or it cannot be told). */
  private static RemoteRewrite rewrite(Repo repo, String remote, String base, ObjectId before, ObjectId after) {
    if (before == null || after == null || before.equals(after)) {
      return null;
    }
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      if (JGitSupport.isAncestor(main, before, after)) {
        return null;
      }
    } catch (IOException | WorkspaceException e) {
      return null; // the old tip's objects may be gone; a task check (baseRewrite) still tells
    }
    return new RemoteRewrite(repo.topLevel().toString(), remote, base, before.name(), after.name(), base + " was rewritten on "
        + remote + " (force-pushed): its old tip " + JGitSupport.abbreviate(before) + " is not part of its new history "
        + JGitSupport.abbreviate(after) + " in repository " + repo + "; tasks cut from the old history are flagged, not rebased");
  }

  private static ObjectId tip(Repo repo, String ref) {
    try (Repository main = JGitSupport.openMain(repo.topLevel())) {
      return JGitSupport.resolve(main, ref);
    } catch (WorkspaceException e) {
      return null;
    }
  }
}
