package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the engine names, places and runs things.
 *
 * @param worktreesRoot  worktrees go to {@code <worktreesRoot>/<project>/<task id>}
 * @param branchPrefix   task branches are {@code <prefix><id>-<slug of title>}
 * @param git            the git executable (a name looked up on PATH, or a path)
 * @param commandTimeout how long a local git command may run before it is killed
 * @param fetchTimeout   how long a fetch or push may run before it is killed
 * @param fetchFreshness a fetch of a repository younger than this is not repeated (20 tasks starting at once
 *                       fetch once)
 * @param fallbackName   author of the engine's merge commits when the repository has no identity
 * @param fallbackEmail  email of that author
 * @param environment    extra environment for every git child process (tests isolate git's global config)
 *
 * <p>Immutable; thread-safe.
 */
public record WorkspaceConfig(
    Path worktreesRoot,
    String branchPrefix,
    String git,
    Duration commandTimeout,
    Duration fetchTimeout,
    Duration fetchFreshness,
    String fallbackName,
    String fallbackEmail,
    Map<String, String> environment) {

  public WorkspaceConfig {
    Objects.requireNonNull(worktreesRoot, "worktreesRoot");
    Objects.requireNonNull(branchPrefix, "branchPrefix");
    environment = Map.copyOf(environment);
  }

  public static WorkspaceConfig defaults(Path worktreesRoot) {
    return new WorkspaceConfig(worktreesRoot, "roundhouse/", "git", Duration.ofSeconds(60), Duration.ofSeconds(120),
        Duration.ofSeconds(30), "Roundhouse", "roundhouse@localhost", Map.of());
  }

  public WorkspaceConfig withBranchPrefix(String prefix) {
    return new WorkspaceConfig(worktreesRoot, prefix, git, commandTimeout, fetchTimeout, fetchFreshness,
        fallbackName, fallbackEmail, environment);
  }

  public WorkspaceConfig withGit(String executable, Map<String, String> env) {
    return new WorkspaceConfig(worktreesRoot, branchPrefix, executable, commandTimeout, fetchTimeout, fetchFreshness,
        fallbackName, fallbackEmail, env);
  }

  public WorkspaceConfig withTimeouts(Duration command, Duration fetch) {
    return new WorkspaceConfig(worktreesRoot, branchPrefix, git, command, fetch, fetchFreshness,
        fallbackName, fallbackEmail, environment);
  }
}
