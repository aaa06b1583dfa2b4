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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The VS Code extension's protocol layer ({@code vscode-extension/src/protocol}, {@code src/model}) drives
 * {@code roundhouse lsp} as a process against a real hub running the script driver: the board, a turn
 * streamed into the transcript model (text deltas replaced by the message, a permission answered from
 * {@code roundhouse/decision}, the tool folded with its result, the thought, the plan replaced in place by
 * its later version, the turn's usage line), a new bridge process resuming the transcript by seq with every
 * line once, paged reads, and bad input; and ({@code test/real/workspace.test.ts}) a git project's task
 * Changes, the diff's base side, a review, a merge and a service's streamed log, all through
 * {@code roundhouse/call}; and ({@code test/real/remote.test.ts}) the remote path with no bridge process: a hub of its
 * own over its WebSocket {@code /api/lsp}, a refused token and Origin, and a reconnect after that hub restarts.
 */
@ExtendWith(NoLeakedProcesses.class)
class VscodeProtocolTest {
  @TempDir Path home;
  @TempDir Path repo;

  @Test
  void extensionProtocolLayerFollowsATurnAnswersItsDecisionAndResumesAfterABridgeRestart() throws Exception {
    NodeProject extension = NodeProject.installed("vscode-extension");
    extension.assertRuns(List.of("npx", "tsc", "-p", "."));
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      Matcher listening = McpStdioTest.listening(hub.awaitErrLine(l -> McpStdioTest.listening(l).matches(), Duration.ofSeconds(60)));
      assertThat(listening.matches()).isTrue();
      String created = op(listening.group(1), Files.readString(home.resolve("token")).strip(), "project_create",
          Map.of("name", "web", "path", repo.toString(), "default_agent", "script"));
      assertThat(created).contains("\"name\":\"web\"");
      extension.assertNodeTestsPass(List.of("node", "--test", "out/test/real/"), Map.of(
          "RH_LSP_CMD", Json.write(Json.tree(lspCommand())),
          "RH_ROUNDHOUSE_CMD", Json.write(Json.tree(McpStdioTest.mcpCommand().subList(0, McpStdioTest.mcpCommand().size() - 1))),
          "RH_PROJECT", "web",
          "ROUNDHOUSE_HOME", home.toString()));
      hub.terminate();
      assertThat(hub.awaitExit(Duration.ofSeconds(30))).isZero();
    }
  }

  private static List<String> lspCommand() {
    List<String> command = new ArrayList<>(McpStdioTest.mcpCommand());
    command.set(command.size() - 1, "lsp");
    command.add("--no-start");
    return command;
  }

  private static String op(String url, String token, String name, Map<String, Object> input) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url + "/api/ops/" + name))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(Json.tree(input))))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }
}
