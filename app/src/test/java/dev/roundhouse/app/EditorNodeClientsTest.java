package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.NodeProject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real editor-protocol clients from npm ({@code lsp-bridge/src/test/node}) drive {@code roundhouse acp} and
 * {@code roundhouse lsp} as processes against {@code roundhouse serve}, whose project {@code web} runs the
 * script driver:
 *
 * <ul>
 *   <li>{@code @agentclientprotocol/sdk}: a prompt that thinks, plans, asks permission and ends with
 *       {@code end_turn}; config options; a cancelled prompt; load and list; malformed input;
 *   <li>{@code vscode-languageserver-protocol} (what VS Code's language client is built on): a
 *       roundhouse-aware client following a turn and answering its decision, a plain client answering it
 *       from {@code window/showMessageRequest}, and bad input.
 * </ul>
 */
@ExtendWith(NoLeakedProcesses.class)
class EditorNodeClientsTest {
  @TempDir Path home;
  @TempDir Path repo;
  private NodeProject node;
  private RoundhouseProcess hub;

  @BeforeEach
  void startHubWithAScriptProject() throws Exception {
    node = NodeProject.installed("lsp-bridge", "src", "test", "node");
    hub = RoundhouseProcess.start(home, "serve", "--port", "0");
    Matcher listening = McpStdioTest.listening(hub.awaitErrLine(l -> McpStdioTest.listening(l).matches(), Duration.ofSeconds(60)));
    assertThat(listening.matches()).isTrue();
    HttpResponse<String> created = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(listening.group(1) + "/api/ops/project_create"))
            .header("Authorization", "Bearer " + Files.readString(home.resolve("token")).strip())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(
                Json.write(Json.tree(Map.of("name", "web", "path", repo.toString(), "default_agent", "script")))))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
  }

  @AfterEach
  void stopHub() throws Exception {
    hub.terminate();
    assertThat(hub.awaitExit(Duration.ofSeconds(30))).isZero();
    hub.close();
  }

  @Test
  void npmAcpClientPromptsConfiguresCancelsLoadsAndSurvivesMalformedInput() throws Exception {
    node.assertNodeTestPasses("acp.test.mjs", Map.of(
        "RH_ACP_CMD", Json.write(Json.tree(face("acp"))),
        "RH_PROJECT_DIR", repo.toString(),
        "ROUNDHOUSE_HOME", home.toString()));
  }

  @Test
  void vscodeLanguageClientProtocolFollowsTurnsAnswersDecisionsAndSurvivesBadInput() throws Exception {
    node.assertNodeTestPasses("lsp.test.mjs", Map.of(
        "RH_LSP_CMD", Json.write(Json.tree(face("lsp"))),
        "RH_PROJECT", "web",
        "ROUNDHOUSE_HOME", home.toString()));
  }

  /** {@code roundhouse <face> --no-start} as a command line, on this test's classpath. */
  private static List<String> face(String name) {
    List<String> command = new ArrayList<>(McpStdioTest.mcpCommand());
    command.set(command.size() - 1, name);
    command.add("--no-start");
    return command;
  }
}
