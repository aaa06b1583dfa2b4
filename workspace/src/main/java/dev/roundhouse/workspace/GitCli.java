package dev.roundhouse.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code git} CLI as a child process: stdin closed, stdout and stderr read on virtual threads, and
 * the child (with its own children, such as ssh) killed when it outlives its timeout. Credential prompts are
 * switched off so a missing credential fails instead of hanging (ssh without a terminal cannot prompt; the
 * user's {@code core.sshCommand} is left alone), and git's repository-redirecting variables are dropped so
 * a hub started from a git hook still talks to the repository it names.
 *
 * <p>Stateless apart from its configuration; thread-safe.
 */
final class GitCli {
  private static final int STDERR_CAP = 16 * 1024;
  private static final List<String> DROPPED = List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
      "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_PREFIX");

  private final String executable;
  private final Map<String, String> environment;
  final Duration commandTimeout;
  final Duration fetchTimeout;

  GitCli(WorkspaceConfig config) {
    this.executable = config.git();
    this.environment = config.environment();
    this.commandTimeout = config.commandTimeout();
    this.fetchTimeout = config.fetchTimeout();
  }

  GitResult run(Path directory, Duration timeout, Map<String, String> extraEnv, List<String> args) {
    return exec(executable, directory, timeout, extraEnv, args);
  }

  /** Runs another program (the {@code gh} CLI) the same way: closed stdin, timeout, no prompts. */
  GitResult exec(String program, Path directory, Duration timeout, Map<String, String> extraEnv, List<String> args) {
    List<String> command = new ArrayList<>(args.size() + 1);
    command.add(program);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    Map<String, String> env = builder.environment();
    DROPPED.forEach(env::remove);
    env.put("LC_ALL", "C");
    env.put("GIT_TERMINAL_PROMPT", "0");
    env.put("GCM_INTERACTIVE", "never");
    env.putAll(environment);
    env.putAll(extraEnv);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new WorkspaceException("could not start " + program + " for repository " + directory
          + " (is it installed and on PATH?): " + e.getMessage(), e);
    }
    try {
      process.getOutputStream().close();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Thread outReader = Thread.ofVirtual().name("git-stdout").start(() -> drain(process.getInputStream(), out, -1));
      Thread errReader = Thread.ofVirtual().name("git-stderr").start(() -> drain(process.getErrorStream(), err, STDERR_CAP));
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(process);
        throw new WorkspaceException(describe(program, args) + " timed out after " + timeout.toSeconds()
            + " s in repository " + directory + " and was stopped");
      }
      // Bounded: a grandchild that inherited the pipes (an ssh master) must not hold us.
      outReader.join(Duration.ofSeconds(5));
      errReader.join(Duration.ofSeconds(5));
      return new GitResult(process.exitValue(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      kill(process);
      throw new WorkspaceException(describe(program, args) + " failed in repository " + directory + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new WorkspaceException(describe(program, args) + " was interrupted in repository " + directory, e);
    }
  }

  GitResult run(Path directory, String... args) {
    return run(directory, commandTimeout, Map.of(), List.of(args));
  }

  /** Runs and insists on success; the failure is a sentence naming the repository and the command. */
  String ok(Path directory, String... args) {
    GitResult result = run(directory, args);
    if (!result.ok()) {
      throw failure(directory, List.of(args), result);
    }
    return result.stdout();
  }

  static WorkspaceException failure(Path directory, List<String> args, GitResult result) {
    return new WorkspaceException(describe(args) + " failed in repository " + directory + ": " + result.why());
  }

  static String describe(List<String> args) {
    return describe("git", args);
  }

  static String describe(String program, List<String> args) {
    StringBuilder text = new StringBuilder(Path.of(program).getFileName().toString());
    for (String arg : args.subList(0, Math.min(args.size(), 3))) {
      text.append(' ').append(arg);
    }
    return text.toString();
  }

  private static void kill(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void drain(InputStream in, ByteArrayOutputStream sink, int cap) {
    byte[] buffer = new byte[8192];
    try (in) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (cap < 0 || sink.size() < cap) {
          sink.write(buffer, 0, cap < 0 ? n : Math.min(n, cap - sink.size()));
        }
      }
    } catch (IOException e) {
      // The process was killed or closed its pipe; what was read so far is what it said.
    }
  }
}
