package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.NodeProject;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Inspector CLI ({@code @modelcontextprotocol/inspector --cli} 0.22.0 on the local Node 22 in
 * {@code mcp-server/src/test/clients}, with a throwaway HOME) lists the hub's tools over Streamable HTTP,
 * with the bearer header, and over stdio through {@code roundhouse mcp}, as docs/mcp.md tells users to.
 */
@ExtendWith(NoLeakedProcesses.class)
class McpInspectorTest {
  private static final List<String> KNOWN_TOOLS = List.of("task_create", "task_get", "project_board", "suggest_task");

  @TempDir Path home;
  @TempDir Path scratch;
  private NodeProject clients;
  private RoundhouseProcess hub;
  private String url;

  @BeforeEach
  void startHub() throws Exception {
    clients = NodeProject.installed("mcp-server", "src", "test", "clients");
    hub = RoundhouseProcess.start(home, "serve", "--port", "0");
    Matcher listening = McpStdioTest.listening(hub.awaitErrLine(line -> McpStdioTest.listening(line).matches(), Duration.ofSeconds(60)));
    assertThat(listening.matches()).isTrue();
    url = listening.group(1) + "/mcp";
  }

  @AfterEach
  void stopHub() {
    if (hub != null) {
      hub.terminate();
      assertThat(hub.awaitExit(Duration.ofSeconds(30))).isZero();
      hub.close();
    }
  }

  @Test
  void inspectorListsToolsOverStreamableHttpWithTheBearerHeader() throws Exception {
    String token = Files.readString(home.resolve("mcp-token")).strip();
    JsonNode listed = inspect(List.of(url, "--transport", "http", "--header", "Authorization: Bearer " + token, "--method", "tools/list"));
    assertThat(names(listed)).containsAll(KNOWN_TOOLS).doesNotContain("get_task", "list_tasks", "ask_user");
  }

  @Test
  void inspectorWithoutTheTokenIsToldWhereTheTokenIs() throws Exception {
    NodeProject.Result refused = clients.run(inspector(List.of(url, "--transport", "http", "--method", "tools/list")), environment());
    assertThat(refused.exit()).as(refused.output()).isNotZero();
    assertThat(refused.output()).contains("missing 'Authorization: Bearer <token>'").contains(home.resolve("mcp-token").toString())
        .doesNotContain("\tat ");
  }

  @Test
  void inspectorListsToolsOverStdioThroughRoundhouseMcp() throws Exception {
    JsonNode listed = inspect(List.of("-e", "ROUNDHOUSE_HOME=" + home, launcher().toString(), "mcp", "--method", "tools/list"));
    assertThat(names(listed)).containsAll(KNOWN_TOOLS).doesNotContain("get_task", "list_tasks", "ask_user");
  }

  /** Runs {@code mcp-inspector --cli arguments...}, asserts it exited 0, and returns the JSON it printed. */
  private JsonNode inspect(List<String> arguments) throws Exception {
    NodeProject.Result run = clients.run(inspector(arguments), environment());
    assertThat(run.exit()).as(run.output()).isZero();
    String output = run.output();
    int start = output.indexOf('{');
    int end = output.lastIndexOf('}');
    assertThat(start).as("JSON in the inspector's output:\n" + output).isNotNegative();
    return Json.read(output.substring(start, end + 1), JsonNode.class);
  }

  private List<String> inspector(List<String> arguments) {
    List<String> command = new ArrayList<>(List.of(node22().toString(),
        clients.folder().resolve("node_modules/.bin/mcp-inspector").toString(), "--cli"));
    command.addAll(arguments);
    return command;
  }

  /** The local Node 22 first on PATH (the inspector runs its CLI with {@code node}), and a throwaway HOME. */
  private Map<String, String> environment() throws Exception {
    Path throwaway = Files.createTempDirectory(scratch, "home-");
    return Map.of("PATH", node22().getParent() + File.pathSeparator + System.getenv().getOrDefault("PATH", ""), "HOME", throwaway.toString());
  }

  private Path node22() {
    return clients.folder().resolve("node_modules/node/bin/node");
  }

  /** A {@code roundhouse} launcher for this JVM's class path, as the distribution's script is. */
  private Path launcher() throws Exception {
    Path script = scratch.resolve("roundhouse");
    if (!Files.exists(script)) {
      List<String> command = McpStdioTest.mcpCommand();
      String java = command.subList(0, command.size() - 1).stream().map(McpInspectorTest::quoted).collect(Collectors.joining(" "));
      Files.writeString(script, "#!/bin/sh\nexec " + java + " \"$@\"\n");
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    }
    return script;
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private static List<String> names(JsonNode listed) {
    return StreamSupport.stream(listed.path("tools").spliterator(), false).map(tool -> tool.path("name").asText()).toList();
  }
}
