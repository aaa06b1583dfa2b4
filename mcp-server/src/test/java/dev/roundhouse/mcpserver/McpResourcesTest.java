package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The hub's resources over MCP: reads, templates, completion and subscriptions, on a real hub. */
@SuppressWarnings("deprecation") // the SDK deprecates the one-argument request constructors without a replacement this test needs
class McpResourcesTest {
  private TestHub hub;
  private String mcpToken;
  private long taskId;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h)));
    mcpToken = Files.readString(McpServers.tokenFile(hub.home())).strip();
    hub.hub().operations().invoke("project_create", Actor.USER, Json.tree(Map.of("name", "web", "path", hub.folder("web"))));
    taskId = hub.hub().operations()
        .invoke("task_create", Actor.USER, Json.tree(Map.of("project", "web", "title", "Fix the login page")))
        .path("id").asLong();
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  private static String text(McpSchema.ReadResourceResult result) {
    return ((McpSchema.TextResourceContents) result.contents().getFirst()).text();
  }

  @Test
  void listsFixedResourcesAndTemplatesAndAdvertisesSubscriptions() {
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "lister")) {
      assertThat(client.getServerCapabilities().resources().subscribe()).isTrue();
      assertThat(client.getServerCapabilities().resources().listChanged()).isFalse();
      assertThat(client.listResources().resources()).extracting(McpSchema.Resource::uri)
          .containsExactlyInAnyOrder("roundhouse://projects", "roundhouse://decisions", "roundhouse://schedules", "roundhouse://runbooks");
      assertThat(client.listResourceTemplates().resourceTemplates()).extracting(McpSchema.ResourceTemplate::uriTemplate)
          .containsExactlyInAnyOrder(
              "roundhouse://projects/{project}/board", "roundhouse://tasks/{id}", "roundhouse://tasks/{id}/transcript",
              "roundhouse://schedules/{id}");
    }
  }

  @Test
  void readsBoardTaskTranscriptAndDecisionsAsTheOperationsAnswer() {
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "reader")) {
      JsonNode task = Json.read(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://tasks/" + taskId))), JsonNode.class);
      assertThat(task.path("title").asText()).isEqualTo("Fix the login page");
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://projects/web/board"))))
          .isEqualTo(Json.write(hub.hub().operations().invoke("project_board", Actor.USER, Json.tree(Map.of("project", "web")))));
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://projects/1/board"))))
          .isEqualTo(Json.write(hub.hub().operations().invoke("project_board", Actor.USER, Json.tree(Map.of("project", "web")))));
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://tasks/" + taskId + "/transcript"))))
          .isEqualTo(Json.write(hub.hub().operations().invoke("task_transcript", Actor.USER, Json.tree(Map.of("task", taskId)))));
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://decisions"))))
          .isEqualTo(Json.write(hub.hub().operations().invoke("decision_list", Actor.USER, null)));
    }
  }

  @Test
  void unknownTaskResourceIsResourceNotFoundWithTheOperationsSentence() {
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "missing")) {
      assertThatThrownBy(() -> client.readResource(new McpSchema.ReadResourceRequest("roundhouse://tasks/999")))
          .isInstanceOf(McpError.class)
          .hasMessageContaining("999")
          .satisfies(e -> assertThat(((McpError) e).getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND));
    }
  }

  @Test
  void completesProjectNamesAndTaskIds() {
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "completer")) {
      McpSchema.CompleteResult projects = client.completeCompletion(new McpSchema.CompleteRequest(
          new McpSchema.ResourceReference("roundhouse://projects/{project}/board"), new McpSchema.CompleteRequest.CompleteArgument("project", "W")));
      assertThat(projects.completion().values()).containsExactly("web");
      McpSchema.CompleteResult tasks = client.completeCompletion(new McpSchema.CompleteRequest(
          new McpSchema.ResourceReference("roundhouse://tasks/{id}"), new McpSchema.CompleteRequest.CompleteArgument("id", "")));
      assertThat(tasks.completion().values()).containsExactly(Long.toString(taskId));
    }
  }

  @Test
  void subscribedTaskAndBoardAreUpdatedWhenTheTaskChanges() throws Exception {
    BlockingQueue<String> updated = new LinkedBlockingQueue<>();
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "watcher", updated::add)) {
      String taskUri = "roundhouse://tasks/" + taskId;
      client.subscribeResource(new McpSchema.SubscribeRequest(taskUri));
      client.subscribeResource(new McpSchema.SubscribeRequest("roundhouse://projects/web/board"));
      McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder("task_update")
          .arguments(Map.of("task", taskId, "title", "Fix the login page for good")).build());
      assertThat(result.isError()).isFalse();
      String first = updated.poll(10, TimeUnit.SECONDS);
      String second = updated.poll(10, TimeUnit.SECONDS);
      assertThat(List.of(String.valueOf(first), String.valueOf(second)))
          .containsExactlyInAnyOrder(taskUri, "roundhouse://projects/web/board");
      assertThat(updated.poll(300, TimeUnit.MILLISECONDS)).as("only subscribed URIs, once each").isNull();
    }
  }

  @Test
  void movedTaskUpdatesTheBoardItLeftAndTheBoardItJoined() throws Exception {
    hub.hub().operations().invoke("project_create", Actor.USER, Json.tree(Map.of("name", "api", "path", hub.folder("api"))));
    BlockingQueue<String> updated = new LinkedBlockingQueue<>();
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "mover", updated::add)) {
      client.subscribeResource(new McpSchema.SubscribeRequest("roundhouse://projects/web/board"));
      client.subscribeResource(new McpSchema.SubscribeRequest("roundhouse://projects/api/board"));
      McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder("task_move")
          .arguments(Map.of("tasks", List.of(taskId), "project", "api")).build());
      assertThat(result.isError()).as(result.toString()).isFalse();
      String first = updated.poll(10, TimeUnit.SECONDS);
      String second = updated.poll(10, TimeUnit.SECONDS);
      assertThat(List.of(String.valueOf(first), String.valueOf(second)))
          .containsExactlyInAnyOrder("roundhouse://projects/web/board", "roundhouse://projects/api/board");
      assertThat(updated.poll(300, TimeUnit.MILLISECONDS)).as("each board once").isNull();
    }
  }

  @Test
  void schedulesAndRunbooksReadAsTheirOperationsAndUpdateWhenAScheduleChanges() throws Exception {
    hub.hub().operations().invoke("runbook_create", Actor.USER, Json.tree(Map.of("project", "web", "name", "triage", "prompt", "triage")));
    JsonNode schedule = hub.hub().operations().invoke("schedule_create", Actor.USER, Json.tree(Map.of(
        "project", "web", "name", "mornings", "runbook", "triage", "recurrence", "0 7 * * 1-5", "zone", "Europe/Berlin")));
    BlockingQueue<String> updated = new LinkedBlockingQueue<>();
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "scheduler-watcher", updated::add)) {
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://schedules"))))
          .isEqualTo(Json.write(hub.hub().operations().invoke("schedule_list", Actor.USER, null)));
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest("roundhouse://runbooks"))))
          .contains("\"name\":\"triage\"");
      String one = "roundhouse://schedules/" + schedule.get("id").asLong();
      assertThat(text(client.readResource(new McpSchema.ReadResourceRequest(one)))).contains("\"runs\":[]", "mornings");
      client.subscribeResource(new McpSchema.SubscribeRequest(one));
      client.subscribeResource(new McpSchema.SubscribeRequest("roundhouse://schedules"));
      McpSchema.CallToolResult paused = client.callTool(McpSchema.CallToolRequest.builder("schedule_pause")
          .arguments(Map.of("schedule", "mornings")).build());
      assertThat(paused.isError()).as(paused.toString()).isFalse();
      String first = updated.poll(10, TimeUnit.SECONDS);
      String second = updated.poll(10, TimeUnit.SECONDS);
      assertThat(List.of(String.valueOf(first), String.valueOf(second))).containsExactlyInAnyOrder(one, "roundhouse://schedules");
    }
  }
}
