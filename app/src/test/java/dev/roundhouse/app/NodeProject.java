package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Node project of real clients from npm that a test runs with {@code node --test} (the MCP TypeScript
 * SDK, the ACP and LSP clients). Installs it with {@code npm ci} when {@code ./run-tests} has not. Not
 * thread-safe; one per test.
 */
final class NodeProject {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  /** What a command printed (stdout and stderr together) and how it ended (-1: killed at the timeout). */
  record Result(int exit, String output) {}

  private final Path folder;

  private NodeProject(Path folder) {
    this.folder = folder;
  }

  /** The project at {@code relative} from the repository root, installed; skips the test without node. */
  static NodeProject installed(String... relative) throws IOException, InterruptedException {
    assumeTrue(works("node", "--version"), "node is not installed; CI installs it (the Node client tests need it)");
    NodeProject project = new NodeProject(Path.of("..", relative).toAbsolutePath().normalize());
    if (!Files.isDirectory(project.folder.resolve("node_modules"))) {
      Result install = project.run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of());
      assertThat(install.exit).as("npm ci in " + project.folder + ": " + install.output).isZero();
    }
    return project;
  }

  /** Runs {@code node --test file} and asserts that it passed, with at least one test. */
  void assertNodeTestPasses(String file, Map<String, String> env) throws IOException, InterruptedException {
    assertNodeTestsPass(List.of("node", "--test", file), env);
  }

  /** Runs a {@code node --test} command line and asserts that it passed, with at least one test and none skipped. */
  void assertNodeTestsPass(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
    Result node = run(command, env);
    System.out.println(node.output);
    assertThat(node.exit).as(node.output).isZero();
    assertThat(node.output).contains("# fail 0").doesNotContain("# pass 0").contains("# skipped 0");
  }

  /** Runs {@code command} and asserts that it exited 0; returns what it printed. */
  String assertRuns(List<String> command) throws IOException, InterruptedException {
    Result result = run(command, Map.of());
    assertThat(result.exit).as(String.join(" ", command) + " in " + folder + ":\n" + result.output).isZero();
    return result.output;
  }

  Path folder() {
    return folder;
  }

  /** Runs {@code command} in the project's folder with none of the hub's variables but {@code env}. */
  Result run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    StringBuffer output = new StringBuffer();
    Thread reader = Thread.ofVirtual().start(() -> {
      try {
        output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        // ended
      }
    });
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    reader.join(Duration.ofSeconds(10));
    return new Result(process.isAlive() ? -1 : process.exitValue(), output.toString());
  }

  private static boolean works(String... command) {
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
