package dev.roundhouse.mcpserver;


import dev.roundhouse.hub.testing.NodeProject;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The real MCP clients pinned in {@code src/test/clients} (the conformance suite and the Inspector CLI) on
 * the local Node 22 that folder installs from npm. {@code ./run-tests} installs it; {@link #installed()} runs
 * {@code npm ci} itself when it has not, and skips the test only where neither the folder's packages nor
 * {@code npm} are there. Commands run as a {@link NodeProject}'s do, with that Node first on {@code PATH} and a
 * throwaway {@code HOME}. Immutable; thread-safe.
 */
final class RealClients {
  private final NodeProject project;

  private RealClients(NodeProject project) {
    this.project = project;
  }

  static RealClients installed() {
    RealClients clients = new RealClients(NodeProject.at(Path.of("src", "test", "clients")));
    if (!Files.isExecutable(clients.node())) {
      NodeProject.require("npm", "the real-client tests need it");
      clients.project.install();
    }
    return clients;
  }

  /** The local Node 22 ({@code node_modules/node}). */
  Path node() {
    return project.folder().resolve("node_modules").resolve("node").resolve("bin").resolve("node");
  }

  /** The entry point of an installed package's command, such as {@code conformance}. */
  Path bin(String name) {
    return project.folder().resolve("node_modules").resolve(".bin").resolve(name);
  }

  /**
   * Runs {@code command} in the clients' folder with the local Node first on {@code PATH}, a fresh
   * {@code HOME}, no {@code ROUNDHOUSE_} variables but those of {@code env}, and no stdin.
   */
  NodeProject.Result run(List<String> command, Map<String, String> env, Duration timeout) {
    Path home;
    try {
      home = Files.createTempDirectory("roundhouse-client-home-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      Map<String, String> environment = new HashMap<>();
      environment.put("PATH", node().getParent() + File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
      environment.put("HOME", home.toString());
      environment.put("NO_COLOR", "1");
      environment.putAll(env);
      return project.run(command, environment, timeout);
    } finally {
      deleteRecursively(home);
    }
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
