package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.NodeProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP TypeScript SDK client ({@code mcp-server/src/test/node}, run with {@code node --test})
 * against a real hub: over Streamable HTTP, and over stdio through {@code roundhouse mcp}.
 */
@ExtendWith(NoLeakedProcesses.class)
class McpNodeClientTest {
  @TempDir Path home;
  @TempDir Path repo;

  @Test
  void typeScriptSdkClientListsCallsReadsAndSubscribesOverHttpAndStdio() throws Exception {
    NodeProject node = NodeProject.installed("mcp-server", "src", "test", "node");
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      Matcher listening = McpStdioTest.listening(hub.awaitErrLine(l -> McpStdioTest.listening(l).matches(), Duration.ofSeconds(60)));
      assertThat(listening.matches()).isTrue();
      String token = Files.readString(home.resolve("mcp-token")).strip();
      node.assertNodeTestPasses("mcp.test.mjs", Map.of(
          "RH_MCP_URL", listening.group(1) + "/mcp",
          "RH_MCP_TOKEN", token,
          "RH_STDIO_CMD", Json.write(Json.tree(McpStdioTest.mcpCommand())),
          "RH_PROJECT_DIR", repo.toString(),
          "ROUNDHOUSE_HOME", home.toString()));
      hub.terminate();
      assertThat(hub.awaitExit(Duration.ofSeconds(30))).isZero();
    }
  }
}
