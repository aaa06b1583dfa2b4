package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.api.AgentToolsApi;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.hub.spi.AgentEndpoint;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A turn's agent reaching the hub over MCP with its task token: a real hub with the MCP endpoint, a turn
 * that opens its endpoint, and the MCP Java SDK client using that URL and token.
 */
class McpAgentToolsTest {
  private static final String INITIALIZE =
      """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
      "capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}""";

  private static final Duration HEARTBEAT = Duration.ofMillis(200);
  private final CountDownLatch endTurn = new CountDownLatch(1);
  private final CompletableFuture<AgentEndpoint> opened = new CompletableFuture<>();
  private TestHub hub;
  private StreamableHttpMount mount;
  private EventRecorder events;
  private long task;

  @BeforeEach
  void start() {
    TestDriver driver = new TestDriver("cli", false, (request, context) -> {
      context.agentEndpoint().ifPresentOrElse(opened::complete, () -> opened.completeExceptionally(new AssertionError("no endpoint")));
      endTurn.await(30, TimeUnit.SECONDS);
    });
    // A fixed source of "random" bits, so the minted token is known: the source is injectable.
    Random fixed = new Random() {
      private static final long serialVersionUID = 1L;

      @Override
      public void nextBytes(byte[] bytes) {
        java.util.Arrays.fill(bytes, (byte) 7);
      }
    };
    hub = TestHub.withDriversAndMounts(c -> c, List.of(driver), h -> {
      mount = (StreamableHttpMount) McpServers.streamableHttp(h, McpOptions.DEFAULTS.withRandom(fixed).withHeartbeat(HEARTBEAT));
      return List.of(mount);
    });
    events = new EventRecorder(hub.hub());
    hub.http().op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "cli"));
    task = hub.http().op("task_create", map("project", "web", "title", "Fix login")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    endTurn.countDown();
    events.close();
    hub.close();
  }

  private AgentEndpoint turnEndpoint() throws Exception {
    hub.http().op("turn_start", map("task", task, "message", "go"));
    return opened.get(20, TimeUnit.SECONDS);
  }

  private static McpSyncClient agentClient(AgentEndpoint endpoint) {
    String base = endpoint.url().toString().substring(0, endpoint.url().toString().length() - McpServers.PATH.length());
    return McpClients.connect(base, endpoint.bearerToken(), "claude-code");
  }

  @Test
  void theEndpointIsTheHubsOwnUrlWithAFreshTokenNeverPrinted() throws Exception {
    AgentEndpoint endpoint = turnEndpoint();
    assertThat(endpoint.url()).hasToString(hub.server().url() + "/mcp");
    assertThat(endpoint.taskId()).isEqualTo(task);
    byte[] sevens = new byte[32];
    java.util.Arrays.fill(sevens, (byte) 7);
    assertThat(endpoint.bearerToken()).isEqualTo("rh_agent_" + Base64.getUrlEncoder().withoutPadding().encodeToString(sevens));
    assertThat(endpoint.toString()).doesNotContain(endpoint.bearerToken());
  }

  @Test
  void aTaskTokenSessionListsOnlyTheAgentsToolsAndItsSuggestionLandsAsTheAgent() throws Exception {
    AgentEndpoint endpoint = turnEndpoint();
    try (McpSyncClient agent = agentClient(endpoint)) {
      assertThat(agent.listTools().tools()).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(AgentToolsApi.NAMES);

      McpSchema.CallToolResult filed = agent.callTool(call("suggest_task", Map.of("project", "WEB", "title", "Add logout")));
      assertThat(filed.isError()).as(text(filed)).isFalse();
      assertThat(text(filed)).contains("suggest_task filed task");
      JsonNode card = Json.tree(filed.structuredContent()).path("task");
      assertThat(card.path("created_by").asText()).isEqualTo("agent:" + task);
      assertThat(card.path("suggested").asBoolean()).isTrue();

      Event created = events.await("task.created", card.path("id").asLong());
      assertThat(created.actor().toString()).isEqualTo("agent:" + task);
      assertThat(hub.http().op("project_board", map("project", "web")).toString()).contains("Add logout");
    }
  }

  @Test
  void anAgentSessionIsToldToolsOutsideItsSetDoNotExistForIt() throws Exception {
    try (McpSyncClient agent = agentClient(turnEndpoint())) {
      assertThatThrownBy(() -> agent.callTool(call("task_delete", Map.of("task", task))))
          .isInstanceOf(McpError.class)
          .hasMessageContaining("no tool named 'task_delete' for an agent session");
      assertThat(hub.hub().board().task(task).title()).isEqualTo("Fix login");
    }
  }

  @Test
  void aRevokedTaskTokenIsRefusedOnceTheTurnEnds() throws Exception {
    AgentEndpoint endpoint = turnEndpoint();
    assertThat(post(endpoint.bearerToken()).status()).isEqualTo(200);

    endTurn.countDown();
    events.await("turn.ended", task);
    Reply refused = post(endpoint.bearerToken());
    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.body().path("error").path("message").asText())
        .contains("task " + task).contains("revoked").doesNotContain(endpoint.bearerToken());

    Reply unknown = post("rh_agent_made-up");
    assertThat(unknown.status()).isEqualTo(401);
    assertThat(unknown.body().path("error").path("message").asText()).contains("nor a live agent token");
  }

  @Test
  void askUserParksTheAgentsTurnUntilTheDecisionIsAnswered() throws Exception {
    try (McpSyncClient agent = agentClient(turnEndpoint())) {
      long direct = mount.directAnswers();
      // A thread of its own: the SDK client hands responses over on the common pool, which a blocked caller
      // there would starve on a two-core machine.
      CompletableFuture<McpSchema.CallToolResult> asked = new CompletableFuture<>();
      Thread.ofVirtual().start(() -> {
        try {
          asked.complete(agent.callTool(call("ask_user", Map.of("question", "Which database?", "options", List.of("sqlite", "postgres")))));
        } catch (RuntimeException e) {
          asked.completeExceptionally(e);
        }
      });
      Event question = events.await("decision.opened", task);
      assertThat(question.data().at("/decision/title").asText()).isEqualTo("Which database?");
      assertThat(question.actor().toString()).isEqualTo("agent:" + task);
      assertThat(asked).as("parked until answered").isNotDone();

      hub.http().op("decision_answer", map("decision", question.data().at("/decision/id").asLong(), "answer", "sqlite"));
      McpSchema.CallToolResult answer = asked.get(20, TimeUnit.SECONDS);
      assertThat(answer.isError()).as(text(answer)).isFalse();
      assertThat(Json.tree(answer.structuredContent()).path("answer").asText()).isEqualTo("sqlite");
      assertThat(mount.directAnswers()).as("ask_user, which waits for a person, goes through the SDK").isEqualTo(direct);
      assertThat(agent.callTool(call("list_tags", Map.of())).isError()).isFalse();
      assertThat(mount.directAnswers()).as("a quick agent tool bypasses it").isEqualTo(direct + 1);
    }
  }

  @Test
  void aParkedCallWithAProgressTokenReportsThatItIsStillRunningAndNothingAtItsStartOrEnd() throws Exception {
    List<McpSchema.ProgressNotification> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
    AgentEndpoint endpoint = turnEndpoint();
    String base = endpoint.url().toString().substring(0, endpoint.url().toString().length() - McpServers.PATH.length());
    try (McpSyncClient agent = McpClients.connect(base, endpoint.bearerToken(), "claude-code", progress::add, log -> {})) {
      CompletableFuture<McpSchema.CallToolResult> asked = new CompletableFuture<>();
      Thread.ofVirtual().start(() -> {
        try {
          asked.complete(agent.callTool(McpSchema.CallToolRequest.builder("ask_user")
              .arguments(Map.of("question", "Ship it?")).meta(Map.of("progressToken", "p-7")).build()));
        } catch (RuntimeException e) {
          asked.completeExceptionally(e);
        }
      });
      Event question = events.await("decision.opened", task);
      Waits.until("two heartbeats of the parked call", Duration.ofSeconds(20), () -> progress.size() >= 2);
      hub.http().op("decision_answer", map("decision", question.data().at("/decision/id").asLong(), "answer", "yes"));
      assertThat(asked.get(20, TimeUnit.SECONDS).isError()).isFalse();

      assertThat(progress).allMatch(p -> "p-7".equals(p.progressToken()));
      assertThat(progress).as("no final notification that could trail the answer").allMatch(p -> p.total() == null);
      assertThat(progress).extracting(McpSchema.ProgressNotification::progress).as("beats count up from 1").startsWith(1.0, 2.0);
      assertThat(progress.get(0).message()).startsWith("ask_user still running after ");
    }
  }

  @Test
  void anExternalClientIsOfferedOneNamePerOperationTheHubsNotTheAgentsTwins() {
    String external = McpServers.tokenFile(hub.home()).toFile().exists() ? read(McpServers.tokenFile(hub.home())) : "";
    try (McpSyncClient client = McpClients.connect(hub.server().url(), external, "cursor")) {
      List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
      assertThat(names).doesNotContainAnyElementsOf(AgentToolsApi.HUB_TWINS.keySet()).doesNotContain(UnknownTools.NAME, "ask_user")
          .containsAll(AgentToolsApi.HUB_TWINS.values()).contains("suggest_task", "withdraw_suggestion")
          .contains("task_get", "task_list", "task_update", "task_move", "tag_list", "tag_update", "project_list", "task_delete", "turn_start");
      // an agent's name still answers a script that calls it
      assertThat(client.callTool(call("list_projects", Map.of())).isError()).isFalse();
      McpSchema.CallToolResult refused = client.callTool(call("ask_user", Map.of("question", "Hello?")));
      assertThat(refused.isError()).isTrue();
      assertThat(text(refused)).startsWith("ask_user: only an agent in a running turn");
    }
  }

  private Reply post(String token) {
    return hub.http().send(HttpRequest.newBuilder(java.net.URI.create(hub.server().url() + McpServers.PATH))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)));
  }

  private static String read(java.nio.file.Path file) {
    try {
      return java.nio.file.Files.readString(file).strip();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static McpSchema.CallToolRequest call(String tool, Map<String, Object> arguments) {
    return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
  }

  private static String text(McpSchema.CallToolResult result) {
    return ((McpSchema.TextContent) result.content().get(0)).text();
  }
}
