package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.RoundhouseException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the workspace extension is configured: where worktrees go, how task branches are named, the retention
 * sweep, the forge for pull requests and how often their status is polled. Read from the hub's environment
 * ({@link #load}); see {@code docs/configuration.md}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param worktreesRoot  task worktrees go to {@code <root>/<project>/<task id>}
 * @param branchPrefix   task branches are {@code <prefix><id>-<slug>}
 * @param retentionDays  the periodic retention sweep removes landed, clean workspaces older than this; 0 = off
 * @param forge          where pull requests go: null (none configured), {@code gh}, or {@code local:<bare repository>}
 * @param ghExecutable   the GitHub CLI to run for the {@code gh} forge
 * @param pollInterval   how often open pull requests are polled (and the retention sweep runs, when on)
 * @param rewriteCheck   how often every task's base is fetched and checked for a rewrite ({@code report_base_rewrite}
 *                       for all of them); zero turns the check off (rewrites are then seen only on fetches that
 *                       happen anyway: cutting a worktree, a sync)
 * @param git            the git executable
 * @param gitEnvironment extra environment for every git child process (tests isolate git's global config)
 */
public record WorkspaceSettings(
    Path worktreesRoot,
    String branchPrefix,
    int retentionDays,
    String forge,
    String ghExecutable,
    Duration pollInterval,
    Duration rewriteCheck,
    String git,
    Map<String, String> gitEnvironment) {

  public static final String WORKTREES = "ROUNDHOUSE_WORKTREES";
  public static final String BRANCH_PREFIX = "ROUNDHOUSE_BRANCH_PREFIX";
  public static final String RETENTION_DAYS = "ROUNDHOUSE_WORKSPACE_RETENTION_DAYS";
  public static final String FORGE = "ROUNDHOUSE_FORGE";
  public static final String GH = "ROUNDHOUSE_GH";
  public static final String PR_POLL = "ROUNDHOUSE_PR_POLL_SECONDS";
  public static final String REWRITE_CHECK = "ROUNDHOUSE_REWRITE_CHECK_MINUTES";
  /** The rewrite check's default period. */
  public static final Duration REWRITE_CHECK_DEFAULT = Duration.ofMinutes(15);

  public WorkspaceSettings {
    Objects.requireNonNull(worktreesRoot, "worktreesRoot");
    Objects.requireNonNull(branchPrefix, "branchPrefix");
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(rewriteCheck, "rewriteCheck");
    if (rewriteCheck.isNegative()) {
      throw new IllegalArgumentException("the rewrite check's period must be zero (off) or more, not " + rewriteCheck);
    }
    if (retentionDays < 0) {
      throw new IllegalArgumentException("retention days must be 0 (off) or more, not " + retentionDays);
    }
    if (forge != null && !forge.equals("gh") && !(forge.startsWith("local:") && forge.length() > "local:".length())) {
      throw new RoundhouseException.InvalidInput(FORGE + "='" + forge + "' is neither 'gh' nor 'local:<path of a bare repository>'");
    }
    ghExecutable = ghExecutable == null ? "gh" : ghExecutable;
    git = git == null ? "git" : git;
    gitEnvironment = Map.copyOf(gitEnvironment);
  }

  /**
   * Worktrees under {@code <home>/worktrees}, prefix {@code roundhouse/}, no sweep, no forge, polling every minute,
   * bases checked for rewrites every 15 minutes.
   */
  public static WorkspaceSettings defaults(Path home) {
    return new WorkspaceSettings(home.resolve("worktrees"), "roundhouse/", 0, null, "gh", Duration.ofSeconds(60), REWRITE_CHECK_DEFAULT,
        "git", Map.of());
  }

  /**
   * The settings {@code env} gives for a hub whose home is {@code home}.
   *
   * @throws RoundhouseException.InvalidInput naming a variable whose value is not usable
   */
  public static WorkspaceSettings load(Path home, Map<String, String> env) {
    WorkspaceSettings defaults = defaults(home);
    String root = value(env, WORKTREES);
    String prefix = value(env, BRANCH_PREFIX);
    return new WorkspaceSettings(
        root == null ? defaults.worktreesRoot() : Path.of(root).toAbsolutePath().normalize(),
        prefix == null ? defaults.branchPrefix() : prefix,
        number(env, RETENTION_DAYS, 0),
        value(env, FORGE),
        value(env, GH) == null ? "gh" : value(env, GH),
        Duration.ofSeconds(Math.max(1, number(env, PR_POLL, 60))),
        Duration.ofMinutes(number(env, REWRITE_CHECK, (int) REWRITE_CHECK_DEFAULT.toMinutes())),
        "git",
        Map.of());
  }

  /** These settings with the forge {@code gh} or {@code local:<bare>}, or none (null). */
  public WorkspaceSettings withForge(String value) {
    return new WorkspaceSettings(worktreesRoot, branchPrefix, retentionDays, value, ghExecutable, pollInterval, rewriteCheck, git, gitEnvironment);
  }

  /** These settings running {@code executable} for git with {@code environment} added. */
  public WorkspaceSettings withGit(String executable, Map<String, String> environment) {
    return new WorkspaceSettings(worktreesRoot, branchPrefix, retentionDays, forge, ghExecutable, pollInterval, rewriteCheck, executable, environment);
  }

  /** These settings with the retention sweep at {@code days} (0: off). */
  public WorkspaceSettings withRetentionDays(int days) {
    return new WorkspaceSettings(worktreesRoot, branchPrefix, days, forge, ghExecutable, pollInterval, rewriteCheck, git, gitEnvironment);
  }

  /** These settings polling every {@code interval}. */
  public WorkspaceSettings withPollInterval(Duration interval) {
    return new WorkspaceSettings(worktreesRoot, branchPrefix, retentionDays, forge, ghExecutable, interval, rewriteCheck, git, gitEnvironment);
  }

  /** These settings checking every task's base for a rewrite every {@code period} (zero: never). */
  public WorkspaceSettings withRewriteCheck(Duration period) {
    return new WorkspaceSettings(worktreesRoot, branchPrefix, retentionDays, forge, ghExecutable, pollInterval, period, git,
        gitEnvironment);
  }

  private static String value(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static int number(Map<String, String> env, String name, int fallback) {
    String value = value(env, name);
    if (value == null) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value);
      if (parsed < 0) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new RoundhouseException.InvalidInput(name + "='" + value + "' is not a whole number of 0 or more");
    }
  }
}
