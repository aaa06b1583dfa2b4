package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.LocalToken;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.mcpserver.McpServers;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code tools/call} over Streamable HTTP against the hub's {@code /mcp} and against the MCP TypeScript SDK's
 * own server serving an equivalent tool, with the same load generator in the same run; prints both and the
 * ratios. The hub runs in this process on a scratch home with a small seeded board; the tool is
 * {@code task_get} (read-only: the hub validates the input against the operation's schema, reads the task
 * from SQLite and answers it as structured content plus text). The TypeScript server answers the same JSON,
 * read from a file, so both send the same bytes.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class McpBenchmark {
  /** The figures of one run: one result per server, in the order they ran. */
  record Figures(McpLoadGenerator.Result roundhouse, McpLoadGenerator.Result typescript) {
    double throughputRatio() {
      return roundhouse.callsPerSecond() / typescript.callsPerSecond();
    }

    double p99Ratio() {
      return roundhouse.percentileMillis(0.99) / typescript.percentileMillis(0.99);
    }
  }

  private static final int TASKS = 12;

  private final Path home;
  private final Optional<String> path;
  private final Path workingDirectory;
  private final Optional<Path> nodeFolder;
  private final McpLoadGenerator load;
  private final String settings;

  /**
   * @param path the {@code PATH} to find {@code node} on
   * @param workingDirectory where to look for the TypeScript server's folder from, when {@code nodeFolder} is empty
   */
  McpBenchmark(Path home, Optional<String> path, Path workingDirectory, Optional<Path> nodeFolder, int sessions, Duration warmUp,
      Duration measured) {
    this.home = home;
    this.path = path;
    this.workingDirectory = workingDirectory;
    this.nodeFolder = nodeFolder;
    this.load = new McpLoadGenerator(sessions, warmUp, measured);
    this.settings = String.format(Locale.ROOT, "%d sessions, %d s warm-up, %d s measured, per server",
        sessions, warmUp.toSeconds(), measured.toSeconds());
  }

  Figures run(PrintWriter out) throws Exception {
    try (Hub hub = Hub.open(HubConfig.forHome(home));
        HubServer server = HubServer.start(hub, Duration.ofSeconds(15), List.of(McpServers.streamableHttp(hub)))) {
      long task = seed(hub);
      JsonNode answer = hub.operations().invoke("task_get", Actor.USER, Json.tree(Map.of("task", task)));
      String expected = Json.write(answer);
      Path answerFile = Files.writeString(home.resolve("task_get.json"), expected, StandardCharsets.UTF_8);
      String arguments = "{\"task\":" + task + "}";
      try (TypeScriptBenchServer typescript = TypeScriptBenchServer.start(path, workingDirectory, nodeFolder, answerFile, task)) {
        out.printf(Locale.ROOT, "roundhouse bench mcp: tools/call task_get (a %d-byte answer) over Streamable HTTP on loopback; %s%n",
            expected.length(), settings);
        out.printf(Locale.ROOT, "  roundhouse: this hub (MCP Java SDK, Undertow, in this JVM) at %s/mcp%n", server.url());
        out.printf(Locale.ROOT, "  typescript: %s (pid %d) at %s%n", typescript.description(), typescript.pid(), typescript.endpoint());
        out.printf(Locale.ROOT, "  load average before: %s%n", loadAverage());
        out.flush();
        McpLoadGenerator.Target ours = new McpLoadGenerator.Target("roundhouse", URI.create(server.url() + McpServers.PATH),
            Map.of("Authorization", "Bearer " + LocalToken.read(McpServers.tokenFile(home))), "task_get", arguments, expected);
        McpLoadGenerator.Target theirs =
            new McpLoadGenerator.Target("typescript", typescript.endpoint(), Map.of(), "task_get", arguments, expected);
        McpLoadGenerator.Result roundhouse = load.run(ours, McpLoadGenerator::processCpuNanos);
        report(out, roundhouse);
        McpLoadGenerator.Result ts = load.run(theirs, () -> McpLoadGenerator.processCpuNanos(typescript.pid()));
        report(out, ts);
        out.println(McpLoadGenerator.describeCpu(roundhouse));
        out.println(McpLoadGenerator.describeCpu(ts));
        Figures figures = new Figures(roundhouse, ts);
        if (roundhouse.calls() == 0 || ts.calls() == 0) {
          out.printf(Locale.ROOT, "no ratio: %s answered no call%n", roundhouse.calls() == 0 ? "roundhouse" : "typescript");
          if (ts.calls() == 0 && !typescript.errors().isBlank()) {
            out.printf(Locale.ROOT, "the TypeScript server said: %s%n", typescript.errors().strip());
          }
        } else {
          out.printf(Locale.ROOT, "ratio throughput roundhouse / typescript: %.2fx (target >= 2x)%n", figures.throughputRatio());
          out.printf(Locale.ROOT, "ratio p99 roundhouse / typescript: %.2f (%.2f ms vs %.2f ms; target < 1)%n",
              figures.p99Ratio(), roundhouse.percentileMillis(0.99), ts.percentileMillis(0.99));
        }
        out.printf(Locale.ROOT, "  load average after: %s%n", loadAverage());
        out.flush();
        return figures;
      }
    }
  }

  private static void report(PrintWriter out, McpLoadGenerator.Result result) {
    out.println(McpLoadGenerator.describe(result));
    if (result.firstFailure() != null) {
      out.println("  first failure: " + result.firstFailure());
    }
    out.flush();
  }

  /** A project with a few tasks, tags and a dependency; returns the task the benchmark reads. */
  private long seed(Hub hub) throws IOException {
    Path repo = Files.createDirectories(home.resolve("repo"));
    invoke(hub, "project_create", Map.of("name", "bench", "path", repo.toString()));
    long previous = 0;
    for (int i = 1; i <= TASKS; i++) {
      Map<String, Object> input = new java.util.HashMap<>(Map.of(
          "project", "bench",
          "title", "Task " + i + ": make the board faster",
          "description", "Measure, then change one thing at a time. Step " + i + " of " + TASKS + ".",
          "tags", List.of("perf", i % 2 == 0 ? "backend" : "frontend")));
      if (previous != 0) {
        input.put("blocked_by", List.of(previous));
      }
      previous = invoke(hub, "task_create", input).get("id").asLong();
    }
    return previous;
  }

  private static JsonNode invoke(Hub hub, String op, Map<String, Object> input) {
    return hub.operations().invoke(op, Actor.USER, Json.tree(input));
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2] + " (" + Runtime.getRuntime().availableProcessors() + " cores)";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
