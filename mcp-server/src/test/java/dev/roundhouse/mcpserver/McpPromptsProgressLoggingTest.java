package dev.roundhouse.mcpserver;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Prompts, progress notifications and MCP logging, with the MCP Java SDK client against a real hub. */
@SuppressWarnings("deprecation") // the SDK deprecates logging and some request constructors (its draft protocol)
class McpPromptsProgressLoggingTest {
  private final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
  private final List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
  private TestHub hub;
  private McpSyncClient client;
  private long task;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(c -> c, h -> List.of(McpServers.streamableHttp(h)));
    hub.http().op("project_create", map("name", "web", "path", hub.folder("web")));
    task = hub.http().op("task_create", map("project", "web", "title", "Fix the login page")).get("id").asLong();
    String token = Files.readString(McpServers.tokenFile(hub.home())).strip();
    client = McpClients.connect(hub.server().url(), token, "chat", progress::add, logs::add);
  }

  @AfterEach
  void stop() {
    client.close();
    hub.close();
  }

  @Test
  void promptsArePlanFeatureAndSummariseBoardAndEmbedTheBoard() {
    assertThat(client.listPrompts().prompts()).extracting(McpSchema.Prompt::name).containsExactlyInAnyOrder("plan_feature", "summarise_board");

    McpSchema.GetPromptResult plan = client.getPrompt(new McpSchema.GetPromptRequest("plan_feature", Map.of("project", "WEB", "feature", "Dark mode")));
    assertThat(plan.messages()).hasSize(2);
    assertThat(((McpSchema.TextContent) plan.messages().get(0).content()).text()).contains("Dark mode").contains("suggest_task");
    McpSchema.EmbeddedResource board = (McpSchema.EmbeddedResource) plan.messages().get(1).content();
    assertThat(board.resource().uri()).isEqualTo("roundhouse://projects/web/board");
    assertThat(((McpSchema.TextResourceContents) board.resource()).text()).contains("Fix the login page");

    McpSchema.GetPromptResult summary = client.getPrompt(new McpSchema.GetPromptRequest("summarise_board", Map.of("project", "web")));
    assertThat(((McpSchema.TextContent) summary.messages().get(0).content()).text()).contains("stand-up");
  }

  @Test
  void aPromptForAnUnknownProjectNamesTheProjectsAndTheProjectArgumentCompletes() {
    assertThatThrownBy(() -> client.getPrompt(new McpSchema.GetPromptRequest("summarise_board", Map.of("project", "nope"))))
        .isInstanceOf(McpError.class).hasMessageContaining("no project 'nope'").hasMessageContaining("web (");
    McpSchema.CompleteResult completed = client.completeCompletion(new McpSchema.CompleteRequest(
        new McpSchema.PromptReference("plan_feature"), new McpSchema.CompleteRequest.CompleteArgument("project", "w")));
    assertThat(completed.completion().values()).containsExactly("web");
  }

  @Test
  void aQuickCallWithAProgressTokenIsAnsweredWithoutProgressThatCouldTrailTheAnswer() {
    McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder("task_get")
        .arguments(Map.of("task", task)).meta(Map.of("progressToken", "p-1")).build());
    assertThat(result.isError()).isFalse();
    client.setLoggingLevel(McpSchema.LoggingLevel.DEBUG); // a later round trip on the session: anything sent before it is in
    client.callTool(McpSchema.CallToolRequest.builder("task_get").arguments(Map.of("task", task)).build());
    Waits.until("the debug log of the second call", Duration.ofSeconds(10), () -> !logs.isEmpty());
    assertThat(progress).as("heartbeats come only while a call is still running after the heartbeat interval").isEmpty();
  }

  @Test
  void serverLogsFollowTheClientsLevel() {
    client.setLoggingLevel(McpSchema.LoggingLevel.DEBUG);
    client.callTool(McpSchema.CallToolRequest.builder("task_get").arguments(Map.of("task", task)).build());
    Waits.until("a debug log of the call", Duration.ofSeconds(10), () -> logs.stream()
        .anyMatch(l -> l.level() == McpSchema.LoggingLevel.DEBUG && l.data().startsWith("task_get for client:chat done in")));

    logs.clear();
    client.setLoggingLevel(McpSchema.LoggingLevel.WARNING);
    client.callTool(McpSchema.CallToolRequest.builder("task_get").arguments(Map.of("task", task)).build());
    client.callTool(McpSchema.CallToolRequest.builder("task_get").arguments(Map.of("task", 999)).build());
    Waits.until("a warning for the refused call", Duration.ofSeconds(10), () -> !logs.isEmpty());
    assertThat(logs).as("the debug log of the first call is below the level").hasSize(1);
    assertThat(logs.get(0).level()).isEqualTo(McpSchema.LoggingLevel.WARNING);
    assertThat(logs.get(0).data()).contains("no task 999");
  }
}
