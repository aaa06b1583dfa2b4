package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.claude.FakeAnthropicServer;
import dev.roundhouse.drivers.openai.FakeModelServer;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.NodeProject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACP's {@code mcpServers}, end to end: the npm ACP client ({@code lsp-bridge/src/test/node/acp-mcp.test.mjs})
 * gives {@code roundhouse acp} an MCP server of ours ({@code notes-server.mjs}): a stdio command with a secret
 * in its env, or a Streamable HTTP server on loopback that wants the secret in its {@code Authorization} header; {@code roundhouse serve} runs the real Claude Code and the OpenAI-compatible driver against fake
 * model servers scripted to call that server's tool; the gate asks the ACP client, the tool answers. Codex
 * is configured at a path where nothing is installed, so choosing it is refused at {@code session/set_mode}.
 * Afterwards: the model saw the tool, the tool's answer went back to the model, the transcript names the
 * server and its transport, and the secret is nowhere in the hub's database or log.
 */
@ExtendWith(NoLeakedProcesses.class)
class AcpMcpServersTest {
  private static final String TOOL = "mcp__notes__lookup_note";
  private static final String SECRET = "s3cret-notes-token-4711";

  @TempDir Path home;
  @TempDir Path repo;
  @TempDir Path claudeHome;
  private final FakeAnthropicServer anthropic = FakeAnthropicServer.start();
  private final FakeModelServer openai = FakeModelServer.start();
  private NodeProject node;
  private RoundhouseProcess hub;
  private String url;

  @BeforeEach
  void startHub() throws Exception {
    node = NodeProject.installed("lsp-bridge", "src", "test", "node");
    Path claude = Path.of("..", "drivers", "src", "test", "agents", "node_modules", ".bin", "claude").toAbsolutePath().normalize();
    assertThat(Files.isExecutable(claude)).as("claude is not installed at %s: run ./run-tests (npm ci in drivers/src/test/agents)", claude).isTrue();
    Files.createDirectories(claudeHome.resolve("tmp"));
    Map<String, String> claudeEnv = new LinkedHashMap<>();
    claudeEnv.put("ANTHROPIC_BASE_URL", anthropic.baseUrl());
    claudeEnv.put("ANTHROPIC_API_KEY", "sk-test");
    claudeEnv.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    claudeEnv.put("DISABLE_TELEMETRY", "1");
    claudeEnv.put("DISABLE_AUTOUPDATER", "1");
    claudeEnv.put("DISABLE_ERROR_REPORTING", "1");
    claudeEnv.put("CLAUDE_CODE_MAX_RETRIES", "1");
    claudeEnv.put("HOME", claudeHome.toString());
    claudeEnv.put("TMPDIR", claudeHome.resolve("tmp").toString());
    Files.writeString(home.resolve("agents.json"), Json.write(Json.tree(Map.of(
        "claude", Map.of("command", claude.toString(), "env", claudeEnv),
        "codex", Map.of("command", home.resolve("no-such-dir/codex").toString()),
        "acp", List.of()))));

    ProcessBuilder serve = RoundhouseProcess.builder(home, List.of(), "serve", "--port", "0");
    serve.environment().put("ROUNDHOUSE_OPENAI_BASE_URL", openai.baseUrl());
    serve.environment().put("ROUNDHOUSE_OPENAI_API_KEY", "sk-test-openai");
    serve.environment().put("ROUNDHOUSE_OPENAI_MODEL", "test-model");
    hub = RoundhouseProcess.start(serve);
    Matcher listening = McpStdioTest.listening(hub.awaitErrLine(l -> McpStdioTest.listening(l).matches(), Duration.ofSeconds(60)));
    assertThat(listening.matches()).isTrue();
    url = listening.group(1);
    op("project_create", Map.of("name", "web", "path", repo.toString(), "default_agent", "script"));
  }

  @AfterEach
  void stopHub() throws Exception {
    try {
      hub.terminate();
      assertThat(hub.awaitExit(Duration.ofSeconds(30))).isZero();
      hub.close();
    } finally {
      anthropic.close();
      openai.close();
    }
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"stdio", "http"})
  void theClientsMcpServerReachesClaudeAndOpenAiThroughTheGateAndAMissingCliIsRefusedAtSetMode(String transport) throws Exception {
    anthropic.enqueue(
        FakeAnthropicServer.answer(FakeAnthropicServer.toolUse("toolu_n1", TOOL, "{\"topic\": \"trains\"}")),
        FakeAnthropicServer.answer("The note is about trains."));
    openai.enqueue(
        FakeModelServer.streamToolCall("call_n1", TOOL, "{\"topic\":\"trains\"}"),
        FakeModelServer.streamText("The note is about trains."));

    try {
      node.assertNodeTestPasses("acp-mcp.test.mjs", Map.of(
          "RH_ACP_CMD", Json.write(Json.tree(face())),
          "RH_PROJECT_DIR", repo.toString(),
          "RH_NOTES_TOKEN", SECRET,
          "RH_NOTES_TRANSPORT", transport,
          "ROUNDHOUSE_HOME", home.toString()));
    } catch (AssertionError e) {
      // What each model server was asked, to see where a turn went astray.
      anthropic.requests().forEach(request -> System.out.println("anthropic: " + request.json().path("messages").path(request.json().path("messages").size() - 1)));
      openai.requests().forEach(request -> System.out.println("openai: " + request.json().path("messages").path(request.json().path("messages").size() - 1)));
      System.out.println(hub.err());
      throw e;
    }

    String answer = "note on trains: the token has " + SECRET.length() + " characters (over " + transport + ")";
    // Claude Code offered the server's tool to the model and sent its answer back.
    assertThat(anthropic.request(0).text()).as("the tool reached the model (Claude Code may defer MCP tools behind its tool search)").contains(TOOL);
    assertThat(anthropic.requests().stream().map(RecordedRequest::body).anyMatch(body -> body.contains(answer))).isTrue();
    // So did the OpenAI-compatible driver, as an MCP client of its own.
    assertThat(toolNames(openai.request(0).json().path("tools"))).contains(TOOL);
    JsonNode toolMessage = openai.request(1).json().path("messages").findParents("tool_call_id").getFirst();
    assertThat(toolMessage.path("content").asText()).isEqualTo(answer);

    // The transcript names the server the turns got (name and transport), and never its env.
    long task = op("task_list", Map.of("project", "web")).path("tasks").get(0).path("id").asLong();
    List<JsonNode> started = new ArrayList<>();
    op("task_transcript", Map.of("task", task)).path("entries").forEach(entry -> {
      if (entry.path("type").asText().equals("turn.started")) {
        started.add(entry.path("data"));
      }
    });
    assertThat(started).hasSize(2);
    for (JsonNode turn : started) {
      assertThat(turn.path("mcp_servers")).hasToString("[{\"name\":\"notes\",\"transport\":\"" + transport + "\"}]");
    }
    try (Stream<Path> files = Files.list(home)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).as("%s holds no secret of the MCP server's env or headers", file)
            .doesNotContain(SECRET);
      }
    }
    assertThat(hub.err()).doesNotContain(SECRET);
  }

  private static List<String> toolNames(JsonNode tools) {
    List<String> names = new ArrayList<>();
    tools.forEach(tool -> names.add(tool.path("function").path("name").asText()));
    return names;
  }

  private JsonNode op(String name, Map<String, Object> input) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url + "/api/ops/" + name))
            .header("Authorization", "Bearer " + Files.readString(home.resolve("token")).strip())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(Json.tree(input))))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(name + ": " + response.body()).isEqualTo(200);
    return Json.read(response.body(), JsonNode.class);
  }

  /** {@code roundhouse acp --no-start} as a command line, on this test's classpath. */
  private static List<String> face() {
    List<String> command = new ArrayList<>(McpStdioTest.mcpCommand());
    command.set(command.size() - 1, "acp");
    command.add("--no-start");
    return command;
  }
}
