package dev.roundhouse.mcpserver;

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
 * The real MCP clients pinned in {@code src/test/clients} (the conformance suite and the Inspector CLI) on
 * the local Node 22 that folder installs from npm. {@code ./run-tests} installs it; {@link #installed()} runs
 * {@code npm ci} itself when it has not, and skips the test only where neither the folder's packages nor
 * {@code npm} are there. Commands run with that Node first on {@code PATH}, a throwaway {@code HOME}, and a
 * deadline after which the process tree is killed. Immutable; thread-safe.
 */
final class RealClients {
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);

  /** What a command printed (stdout and stderr together) and how it ended; -1 when it was killed at its deadline. */
  record Result(int exit, String output) {}

  private final Path folder;

  private RealClients(Path folder) {
    this.folder = folder;
  }

  static RealClients installed() {
    RealClients clients = new RealClients(Path.of("src", "test", "clients").toAbsolutePath());
    if (!Files.isExecutable(clients.node())) {
      assumeTrue(works("npm", "--version"), "npm is not installed; CI installs it (the real-client tests need it)");
      Result install = clients.run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), INSTALL_TIMEOUT);
      assertThat(install.exit()).as("npm ci in " + clients.folder + ":\n" + install.output()).isZero();
    }
    return clients;
  }

  /** The local Node 22 ({@code node_modules/node}). */
  Path node() {
    return folder.resolve("node_modules").resolve("node").resolve("bin").resolve("node");
  }

  /** The entry point of an installed package's command, such as {@code conformance}. */
  Path bin(String name) {
    return folder.resolve("node_modules").resolve(".bin").resolve(name);
  }

  /**
   * Runs {@code command} in the clients' folder with the local Node first on {@code PATH}, a fresh
   * {@code HOME}, no {@code ROUNDHOUSE_} variables but those of {@code env}, and no stdin.
   */
  Result run(List<String> command, Map<String, String> env, Duration timeout) {
    Path home = null;
    try {
      home = Files.createTempDirectory("roundhouse-client-home-");
      ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true);
      Map<String, String> environment = builder.environment();
      environment.keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
      environment.put("PATH", node().getParent() + java.io.File.pathSeparator + environment.getOrDefault("PATH", ""));
      environment.put("HOME", home.toString());
      environment.put("NO_COLOR", "1");
      environment.putAll(env);
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
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      if (home != null) {
        deleteRecursively(home);
      }
    }
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

  private static void deleteRecursively(Path root) {
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
