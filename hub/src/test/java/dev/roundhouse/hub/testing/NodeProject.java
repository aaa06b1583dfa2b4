package dev.roundhouse.hub.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Node project of real clients from npm that a test runs (the MCP TypeScript SDK, the MCP conformance suite and
 * Inspector, the ACP and LSP clients, the VS Code extension), for the tests of every module. It is installed with
 * {@code npm ci} when {@code ./run-tests} has not; commands run in its folder with none of the hub's
 * {@code ROUNDHOUSE_} variables but those given, no stdin, stdout and stderr together, and a deadline after which
 * the process tree is killed. Immutable; thread-safe (each run is a process of its own).
 */
public final class NodeProject {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);

  /** What a command printed (stdout and stderr together) and how it ended; -1 when it was killed at its deadline. */
  public record Result(int exit, String output) {}

  private final Path folder;

  private NodeProject(Path folder) {
    this.folder = folder;
  }

  /** The project in {@code folder}, as it is (see {@link #install()}). */
  public static NodeProject at(Path folder) {
    return new NodeProject(folder.toAbsolutePath().normalize());
  }

  /**
   * The project at {@code relative} from the repository root (a module's tests run in the module's folder),
   * installed when it has no {@code node_modules}; where {@code node} is absent, see {@link #require}.
   */
  public static NodeProject installed(String... relative) {
    require("node", "the Node client tests need it");
    NodeProject project = at(Path.of("..", relative));
    if (!Files.isDirectory(project.folder.resolve("node_modules"))) {
      project.install();
    }
    return project;
  }

  /**
   * Makes sure {@code tool} runs ({@code tool --version}). Where it does not, the calling test is skipped,
   * saying so, on a developer's machine, and fails under CI (the {@code CI} variable set, as {@code .ci/run}
   * has it), which installs every tool: CI never passes by skipping.
   */
  public static void require(String tool, String why) {
    if (runs(tool, "--version")) {
      return;
    }
    String message = tool + " is not installed (" + why + "); .ci/run installs it";
    if (System.getenv("CI") != null) {
      throw new IllegalStateException(message);
    }
    assumeTrue(false, message);
  }

  /** Runs {@code npm ci} in the folder and asserts that it succeeded. */
  public void install() {
    Result install = run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), INSTALL_TIMEOUT);
    assertThat(install.exit()).as("npm ci in " + folder + ":\n" + install.output()).isZero();
  }

  public Path folder() {
    return folder;
  }

  /** Runs {@code node --test file} and asserts that it passed, with at least one test. */
  public void assertNodeTestPasses(String file, Map<String, String> env) {
    assertNodeTestsPass(List.of("node", "--test", file), env);
  }

  /** Runs a {@code node --test} command line and asserts that it passed, with at least one test and none skipped. */
  public void assertNodeTestsPass(List<String> command, Map<String, String> env) {
    assertNodeTestsPass(command, env, RUN_TIMEOUT);
  }

  /** As {@link #assertNodeTestsPass(List, Map)}, for suites that need longer than 3 minutes. */
  public void assertNodeTestsPass(List<String> command, Map<String, String> env, Duration timeout) {
    Result node = run(command, env, timeout);
    System.out.println(node.output());
    assertThat(node.exit()).as(node.output()).isZero();
    assertThat(node.output()).contains("# fail 0").doesNotContain("# pass 0").contains("# skipped 0");
  }

  /** Runs {@code command} and asserts that it exited 0; returns what it printed. */
  public String assertRuns(List<String> command) {
    Result result = run(command, Map.of());
    assertThat(result.exit()).as(String.join(" ", command) + " in " + folder + ":\n" + result.output()).isZero();
    return result.output();
  }

  /** Runs {@code command} in the folder with {@code env} (and no {@code ROUNDHOUSE_} variable it does not name), for up to 3 minutes. */
  public Result run(List<String> command, Map<String, String> env) {
    return run(command, env, RUN_TIMEOUT);
  }

  /** As {@link #run(List, Map)}, killing the process and its descendants once {@code timeout} has passed. */
  public Result run(List<String> command, Map<String, String> env, Duration timeout) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    builder.environment().putAll(env);
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      StringBuffer output = new StringBuffer();
      Thread reader = Thread.ofVirtual().start(() -> {
        try {
          output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
          // the process ended
        }
      });
      boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
      reader.join(Duration.ofSeconds(10));
      return new Result(finished ? process.exitValue() : -1, output.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command) + " in " + folder, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running " + String.join(" ", command), e);
    }
  }

  /** Whether {@code command} runs here and exits 0 (within 30 s), e.g. {@code node --version}. */
  public static boolean runs(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
