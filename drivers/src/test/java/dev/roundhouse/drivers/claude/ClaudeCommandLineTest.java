package dev.roundhouse.drivers.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.TurnRequest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClaudeCommandLineTest {
  private static TurnRequest request(String model, String mode, List<String> summaries) {
    return new TurnRequest(3, 9, "web", Path.of("/src/web"), "hi", "Project web.\n\nTask #9: Fix it", summaries, null, model, mode, false);
  }

  @Test
  void aFreshSessionUsesTheBidirectionalStreamAndTheStdioPermissionPrompt() {
    List<String> line = ClaudeCommandLine.build(
        new AgentCommand("/opt/claude", List.of("--debug-file", "/tmp/d.log"), Map.of()), request(null, null, List.of()), null,
        Optional.empty(), Optional.empty());

    assertThat(line).containsExactly(
        "/opt/claude", "--debug-file", "/tmp/d.log", "-p", "--input-format", "stream-json", "--output-format", "stream-json",
        "--verbose", "--include-partial-messages", "--permission-prompt-tool", "stdio");
  }

  @Test
  void resumeModelModePromptAndMcpConfigArePassed() {
    List<String> line = ClaudeCommandLine.build(
        AgentCommand.of("claude"), request("opus", "acceptEdits", List.of()), "5f0c1c9e-0000-4000-8000-000000000001",
        Optional.of(Path.of("/tmp/t/system-prompt.md")), Optional.of(Path.of("/tmp/t/mcp.json")));

    assertThat(String.join(" ", line)).endsWith(
        "--resume 5f0c1c9e-0000-4000-8000-000000000001 --model opus --permission-mode acceptEdits"
            + " --append-system-prompt-file /tmp/t/system-prompt.md --mcp-config /tmp/t/mcp.json --strict-mcp-config");
  }

  @Test
  void theSystemPromptCarriesTheTaskAndTheSummariesOldestFirst() {
    String prompt = ClaudeCommandLine.systemPrompt(request(null, null, List.of("Chose SQLite.", "Added the store.")));

    assertThat(prompt).contains("Project web.\n\nTask #9: Fix it")
        .contains("Summaries of this task's earlier sessions, oldest first:\n\n1. Chose SQLite.\n\n2. Added the store.\n");
  }

  @Test
  void aTaskThatIsNotCodingWorkHasItsOwnPromptFirst() {
    TurnRequest calendar = new TurnRequest(3, 9, "life", Path.of("/src/life"), "hi", "Task #9: Plan my week", List.of(), null, null, null,
        false, Map.of(), "# The calendar agent");

    assertThat(ClaudeCommandLine.systemPrompt(calendar)).startsWith("# The calendar agent\n\nYou are working on a task from the Roundhouse board.\n\nTask #9: Plan my week");
  }

  @Test
  void theMcpConfigIsAPrivateFileDeletedWithTheFolder() throws Exception {
    Path folder;
    try (TurnFolder turn = TurnFolder.create()) {
      folder = turn.path();
      Path config = turn.writeMcpConfig(new AgentEndpoint(URI.create("http://127.0.0.1:7411/mcp"), "task-token-123", 9));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
      assertThat(Files.readString(config)).isEqualTo(
          "{\"mcpServers\":{\"roundhouse\":{\"type\":\"http\",\"url\":\"http://127.0.0.1:7411/mcp\","
              + "\"headers\":{\"Authorization\":\"Bearer task-token-123\"}}}}");
    }
    assertThat(folder).doesNotExist();
  }

  @Test
  void aFacesMcpServersGoInTheSameConfigUnderTheirOwnNames() throws Exception {
    try (TurnFolder turn = TurnFolder.create()) {
      List<McpServerSpec> servers = List.of(
          McpServerSpec.stdio("notes", "node", List.of("notes.mjs"), Map.of("NOTES_TOKEN", "t0k")),
          McpServerSpec.http("docs", "http://127.0.0.1:9/mcp", Map.of("Authorization", "Bearer h")));
      Path withHub = turn.writeMcpConfig(servers, new AgentEndpoint(URI.create("http://127.0.0.1:7411/mcp"), "task-token-123", 9)).orElseThrow();
      assertThat(Files.readString(withHub)).isEqualTo(
          "{\"mcpServers\":{\"roundhouse\":{\"type\":\"http\",\"url\":\"http://127.0.0.1:7411/mcp\","
              + "\"headers\":{\"Authorization\":\"Bearer task-token-123\"}},"
              + "\"notes\":{\"type\":\"stdio\",\"command\":\"node\",\"args\":[\"notes.mjs\"],\"env\":{\"NOTES_TOKEN\":\"t0k\"}},"
              + "\"docs\":{\"type\":\"http\",\"url\":\"http://127.0.0.1:9/mcp\",\"headers\":{\"Authorization\":\"Bearer h\"}}}}");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(withHub))).isEqualTo("rw-------");
    }
    try (TurnFolder turn = TurnFolder.create()) {
      assertThat(turn.writeMcpConfig(List.of(), null)).as("no hub endpoint and no servers: no file").isEmpty();
    }
  }
}
