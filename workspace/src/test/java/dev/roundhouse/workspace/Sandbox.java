package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real repositories in a temporary folder: a bare {@code origin.git} and a clone {@code web} (branch main, one
 * commit, pushed). Every git process, the tests' and the engine's, runs without global or system config, so
 * the tests pass on a machine with no git identity; the clone has its own, the bare remote has none.
 *
 * <p>Not thread-safe for setup; {@link #git} may be called from any thread.
 */
final class Sandbox {
  static final Map<String, String> ISOLATED = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1");
  private static final Map<String, String> IDENTITY = Map.of("GIT_AUTHOR_NAME", "Test Author",
      "GIT_AUTHOR_EMAIL", "author@example.invalid", "GIT_COMMITTER_NAME", "Test Author",
      "GIT_COMMITTER_EMAIL", "author@example.invalid");

  final Path root;
  final Path remote;
  final Path project;
  final Path worktrees;

  Sandbox(Path root) {
    this.root = root;
    this.remote = root.resolve("origin.git");
    this.project = root.resolve("web");
    this.worktrees = root.resolve("worktrees");
    git(root, "init", "-q", "--bare", "-b", "main", remote.toString());
    git(root, "clone", "-q", remote.toString(), project.toString());
    git(project, "config", "user.name", "Project Owner");
    git(project, "config", "user.email", "owner@example.invalid");
    git(project, "symbolic-ref", "HEAD", "refs/heads/main");
    commit(project, "initial", "README.md", "hello\n", "src/app.txt", "one\ntwo\nthree\n");
    git(project, "push", "-q", "-u", "origin", "main");
  }

  Workspace workspace() {
    return workspace(config(), Clock.systemUTC());
  }

  Workspace workspace(WorkspaceConfig config, Clock clock) {
    return Workspace.create(config, clock);
  }

  WorkspaceConfig config() {
    return WorkspaceConfig.defaults(worktrees).withGit("git", ISOLATED);
  }

  EnsureResult ensure(Workspace workspace, long taskId, String title) {
    return workspace.worktrees().ensure(WorktreeRequest.of("web", project.toString(), taskId, title));
  }

  /** Runs git and insists on success; returns stdout without its trailing newline. */
  String git(Path directory, String... args) {
    Result result = run(directory, args);
    assertThat(result.exitCode()).as("git %s in %s: %s", String.join(" ", args), directory, result.stderr()).isZero();
    return result.stdout().stripTrailing();
  }

  record Result(int exitCode, String stdout, String stderr) {}

  Result run(Path directory, String... args) {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    Map<String, String> env = new HashMap<>(ISOLATED);
    env.putAll(IDENTITY);
    builder.environment().putAll(env);
    try {
      Path out = Files.createTempFile(root, "git", ".out");
      Path err = Files.createTempFile(root, "git", ".err");
      Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      process.getOutputStream().close();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("git %s finished", String.join(" ", args)).isTrue();
      Result result = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
      Files.delete(out);
      Files.delete(err);
      return result;
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Writes files (path, content pairs), stages everything and commits; returns the new commit id. */
  String commit(Path directory, String message, String... pathsAndContents) {
    write(directory, pathsAndContents);
    git(directory, "add", "-A");
    git(directory, "commit", "-q", "-m", message);
    return git(directory, "rev-parse", "HEAD");
  }

  void write(Path directory, String... pathsAndContents) {
    for (int i = 0; i < pathsAndContents.length; i += 2) {
      Path file = directory.resolve(pathsAndContents[i]);
      try {
        Files.createDirectories(file.getParent());
        Files.writeString(file, pathsAndContents[i + 1], StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
  }

  String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  String tip(String ref) {
    return git(project, "rev-parse", ref);
  }

  /** A second clone of the remote, standing for a colleague who pushes. */
  Path colleague() {
    Path clone = root.resolve("colleague");
    git(root, "clone", "-q", remote.toString(), clone.toString());
    git(clone, "config", "user.name", "Colleague");
    git(clone, "config", "user.email", "colleague@example.invalid");
    return clone;
  }

  /** Waits (with a deadline) until this JVM has no child process left, and says which ones lingered. */
  static void assertNoChildProcesses() {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    for (ProcessHandle child : ProcessHandle.current().descendants().toList()) {
      try {
        child.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        throw new AssertionError("child process " + child.pid() + " (" + child.info().commandLine().orElse("?")
            + ") outlived its test", e);
      }
    }
  }
}
