package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.roundhouse.hub.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP TypeScript SDK client ({@code mcp-server/src/test/node}, run with {@code node --test})
 * against a real hub: over Streamable HTTP, and over stdio through {@code roundhouse mcp}. Installs the Node
 * project with {@code npm ci} when {@code .ci/run} has not.
 */
@ExtendWith(NoLeakedProcesses.class)
class McpNodeClientTest {
  private static final Path NODE_PROJECT = Path.of("..", "mcp-server", "src", "test", "node").toAbsolutePath().normalize();
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @TempDir Path home;
  @TempDir Path repo;

  @Test
  void typeScriptSdkClientListsCallsReadsAndSubscribesOverHttpAndStdio() throws Exception {
    assumeTrue(works("node", "--version"), "node is not installed; CI installs it (the MCP TypeScript SDK tests need it)");
    if (!Files.isDirectory(NODE_PROJECT.resolve("node_modules"))) {
      assertThat(run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of()).exit).as("npm ci in " + NODE_PROJECT).isZero();
    }
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      Matcher listening = McpStdioTest.listening(hub.awaitErrLine(l -> McpStdioTest.listening(l).matches(), Duration.ofSeconds(60)));
      assertThat(listening.matches()).isTrue();
      String token = Files.readString(home.resolve("mcp-token")).strip();
      Result node = run(List.of("node", "--test", "mcp.test.mjs"), Map.of(
          "RH_MCP_URL", listening.group(1) + "/mcp",
          "RH_MCP_TOKEN", token,
          "RH_STDIO_CMD", Json.write(Json.tree(McpStdioTest.mcpCommand())),
          "RH_PROJECT_DIR", repo.toString(),
          "ROUNDHOUSE_HOME", home.toString()));
      System.out.println(node.output);
      assertThat(node.exit).as(node.output).isZero();
      assertThat(node.output).contains("# fail 0").doesNotContain("# pass 0");
      hub.terminate();
      assertThat(hub.awaitExit(Duration.ofSeconds(30))).isZero();
    }
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(NODE_PROJECT.toFile()).redirectErrorStream(true);
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
