package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Computes a merge without any checkout ({@code git merge-tree --write-tree}, git's own merge machinery with
 * rename detection) and writes the merge commit ({@code git commit-tree}). Nothing here moves a branch or
 * touches a working tree, so a conflict leaves nothing to abort: at worst some unreferenced objects that
 * {@code git gc} collects. Needs git 2.38 or newer.
 *
 * <p>Stateless apart from its configuration; thread-safe.
 */
final class MergeTree {

  /** The merged tree, or the conflicting paths when {@code conflicts} is not empty. */
  record Outcome(ObjectId tree, List<String> conflicts) {}

  private final GitCli git;
  private final Clock clock;
  private final String fallbackName;
  private final String fallbackEmail;

  MergeTree(GitCli git, Clock clock, WorkspaceConfig config) {
    this.git = git;
    this.clock = clock;
    this.fallbackName = config.fallbackName();
    this.fallbackEmail = config.fallbackEmail();
  }

  Outcome merge(Path repository, ObjectId ours, ObjectId theirs) {
    GitResult result = git.run(repository, "merge-tree", "--write-tree", "--name-only", "-z", "--no-messages",
        ours.name(), theirs.name());
    if (result.exitCode() > 1 || result.stdout().isEmpty()) {
      if (result.stderr().contains("usage:") || result.stderr().contains("unknown option")) {
        throw new WorkspaceException("merging in repository " + repository + " needs git 2.38 or newer: "
            + result.why());
      }
      throw GitCli.failure(repository, List.of("merge-tree", "--write-tree"), result);
    }
    String[] fields = result.stdout().split("\0", -1);
    List<String> conflicts = new ArrayList<>();
    for (int i = 1; i < fields.length && !fields[i].isEmpty(); i++) {
      conflicts.add(fields[i]);
    }
    if (result.exitCode() == 1 && conflicts.isEmpty()) {
      throw GitCli.failure(repository, List.of("merge-tree", "--write-tree"), result);
    }
    return new Outcome(ObjectId.fromString(fields[0].strip()), conflicts);
  }

  ObjectId commit(Path repository, ObjectId tree, String message, ObjectId firstParent, ObjectId secondParent) {
    GitResult result = git.run(repository, git.commandTimeout, identity(repository), List.of("commit-tree",
        tree.name(), "-p", firstParent.name(), "-p", secondParent.name(), "-m", message));
    if (!result.ok()) {
      throw GitCli.failure(repository, List.of("commit-tree"), result);
    }
    return ObjectId.fromString(result.stdout().strip());
  }

  /** The repository's own identity when it has one, else the configured fallback; dated by the clock. */
  private Map<String, String> identity(Path repository) {
    Map<String, String> env = new HashMap<>();
    String date = clock.instant().getEpochSecond() + " +0000";
    env.put("GIT_AUTHOR_DATE", date);
    env.put("GIT_COMMITTER_DATE", date);
    boolean named = git.run(repository, "config", "--get", "user.name").ok();
    boolean mailed = git.run(repository, "config", "--get", "user.email").ok();
    if (!named || !mailed) {
      env.put("GIT_AUTHOR_NAME", fallbackName);
      env.put("GIT_COMMITTER_NAME", fallbackName);
      env.put("GIT_AUTHOR_EMAIL", fallbackEmail);
      env.put("GIT_COMMITTER_EMAIL", fallbackEmail);
    }
    return env;
  }
}
