package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.roundhouse.hub.api.AgentToolsApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestHub;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The MCP endpoint on a real hub on a free port, driven by the MCP Java SDK client and by raw HTTP. */
class McpHttpTest {
  private static final String INITIALIZE =
      """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
      "capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}""";

  private TestHub hub;
  private String mcpToken;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h)));
    mcpToken = Files.readString(McpServers.tokenFile(hub.home())).strip();
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  private McpSyncClient client(String name) {
    return McpClients.connect(hub.server().url(), mcpToken, name);
  }

  @Test
  void initializeNamesTheServerAndOffersTools() {
    try (McpSyncClient client = client("init-test")) {
      assertThat(client.getServerInfo().name()).isEqualTo("roundhouse");
      assertThat(client.getServerCapabilities().tools()).isNotNull();
    }
  }

  @Test
  void toolsListIsTheOperationRegistry() {
    try (McpSyncClient client = client("list-test")) {
      Map<String, McpSchema.Tool> tools =
          client.listTools().tools().stream().collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));
      List<OperationDescriptor> operations = hub.hub().operations().list().stream()
          .filter(operation -> !AgentToolsApi.HUB_TWINS.containsKey(operation.name()) && !operation.name().equals("ask_user"))
          .toList(); // the agents' names of hub operations are the agents'; ask_user answers only in a turn
      assertThat(tools.keySet()).containsExactlyInAnyOrderElementsOf(operations.stream().map(OperationDescriptor::name).toList());
      for (OperationDescriptor operation : operations) {
        McpSchema.Tool tool = tools.get(operation.name());
        assertThat(tool.description()).as(operation.name()).isEqualTo(operation.description());
        assertThat(Json.tree(tool.inputSchema())).as(operation.name() + " input").isEqualTo(operation.inputSchema());
        assertThat(Json.tree(tool.outputSchema())).as(operation.name() + " output").isEqualTo(operation.outputSchema());
        assertThat(tool.annotations().readOnlyHint()).as(operation.name()).isEqualTo(operation.annotations().readOnly());
        assertThat(tool.annotations().destructiveHint()).as(operation.name()).isEqualTo(operation.annotations().destructive());
        assertThat(tool.annotations().idempotentHint()).as(operation.name()).isEqualTo(operation.annotations().idempotent());
      }
    }
  }

  @Test
  void writeToolRecordsTheClientAsActorAndReadToolReturnsStructuredContent() {
    try (McpSyncClient client = client("cursor")) {
      McpSchema.CallToolResult project =
          client.callTool(call("project_create", Map.of("name", "web", "path", hub.folder("web"))));
      assertThat(project.isError()).as(text(project)).isFalse();

      McpSchema.CallToolResult created =
          client.callTool(call("task_create", Map.of("project", "web", "title", "Fix the login page")));
      assertThat(created.isError()).as(text(created)).isFalse();
      JsonNode task = Json.tree(created.structuredContent());
      assertThat(task.path("title").asText()).isEqualTo("Fix the login page");
      assertThat(task.path("created_by").asText()).isEqualTo(Actor.client("cursor").toString());
      assertThat(Json.read(text(created), JsonNode.class)).isEqualTo(task);
      assertMatchesOutputSchema("task_create", task);

      McpSchema.CallToolResult read =
          client.callTool(call("task_get", Map.of("task", task.path("id").asLong())));
      assertThat(read.isError()).isFalse();
      assertThat(Json.tree(read.structuredContent()).path("title").asText()).isEqualTo("Fix the login page");
      assertMatchesOutputSchema("task_get", Json.tree(read.structuredContent()));
    }
  }

  @Test
  void operationErrorIsAToolErrorWithTheOperationsSentence() {
    try (McpSyncClient client = client("errors")) {
      McpSchema.CallToolResult missing = client.callTool(call("task_get", Map.of("task", 999)));
      assertThat(missing.isError()).isTrue();
      assertThat(text(missing)).contains("999").doesNotContain("Exception").doesNotContain("\tat ");

      McpSchema.CallToolResult invalid = client.callTool(call("task_get", Map.of("task", "seven")));
      assertThat(invalid.isError()).isTrue();
      assertThat(text(invalid)).contains("task").doesNotContain("\tat ");
    }
  }

  @Test
  void missingOrWrongTokenIs401() {
    Reply missing = post(raw().header("Content-Type", "application/json"), INITIALIZE);
    assertThat(missing.status()).isEqualTo(401);
    assertThat(missing.raw().headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(missing.body().path("error").path("message").asText()).contains("mcp-token");

    Reply wrong = post(mcp("not-the-token"), INITIALIZE);
    assertThat(wrong.status()).isEqualTo(401);

    Reply hubToken = post(mcp(hub.hub().token()), INITIALIZE);
    assertThat(hubToken.status()).as("the local API token is not the MCP token").isEqualTo(401);
  }

  @Test
  void foreignOriginIs403AndLoopbackOriginPasses() {
    Reply foreign = post(mcp(mcpToken).header("Origin", "https://evil.example"), INITIALIZE);
    assertThat(foreign.status()).isEqualTo(403);
    assertThat(foreign.body().path("error").path("message").asText()).contains("evil.example");

    Reply loopback = post(mcp(mcpToken).header("Origin", "http://localhost:3000"), INITIALIZE);
    assertThat(loopback.status()).isEqualTo(200);
  }

  @Test
  void invalidProtocolVersionIs400() {
    Reply reply = post(mcp(mcpToken).header("MCP-Protocol-Version", "1999-01-01"), INITIALIZE);
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body().path("error").path("message").asText()).contains("1999-01-01").contains("2025-06-18");
  }

  @Test
  void malformedJsonRpcIsAnErrorWithoutStackTraceAndTheHubKeepsServing() {
    Reply reply = post(mcp(mcpToken), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body().path("error").path("code").asInt()).isEqualTo(JsonRpcErrors.PARSE_ERROR);
    assertNoStackTrace(reply);

    Reply notRpc = post(mcp(mcpToken), "[1,2,3]");
    assertThat(notRpc.status()).isBetween(400, 499);
    assertNoStackTrace(notRpc);

    assertThat(hub.http().get("/api/health").status()).isEqualTo(200);
    try (McpSyncClient client = client("after")) {
      assertThat(client.listTools().tools()).isNotEmpty();
    }
  }

  @Test
  void anUnknownToolIsAnErrorNamingItAndTheNearestToolsAndTheSessionGoesOn() {
    try (McpSyncClient client = client("unknown-tool")) {
      assertThatThrownBy(() -> client.callTool(call("task_gett", Map.of("task", 1))))
          .isInstanceOf(io.modelcontextprotocol.spec.McpError.class)
          .hasMessageContaining("no tool named 'task_gett'")
          .hasMessageContaining("did you mean task_get")
          .hasMessageNotContaining("invalid_tool_name")
          .hasMessageNotContaining("\tat ");
      assertThat(client.listTools().tools()).isNotEmpty().noneMatch(tool -> tool.name().equals(UnknownTools.NAME));
      assertThat(client.callTool(call("project_list", Map.of())).isError()).isFalse();
    }
  }

  @ParameterizedTest(name = "unknown length: {0}")
  @ValueSource(booleans = {false, true})
  void aRequestOverTheLimitIs413NamingTheLimitNothingIsStoredAndTheSessionGoesOn(boolean chunked) throws Exception {
    int limit = hub.hub().config().maxBodyBytes();
    hub.http().op("project_create", Map.of("name", "web", "path", hub.folder("web")));
    String session = rawSession();

    HttpResponse<String> atTheLimit = postInSession(session, taskCreate("At the limit", limit), chunked);
    assertThat(atTheLimit.statusCode()).as(atTheLimit.body()).isEqualTo(200);

    // 4 MiB is past Undertow's own limit (2 MiB), which would answer a declared length before any filter ran.
    for (int size : List.of(limit + 1, 4 * limit)) {
      HttpResponse<String> over = postInSession(session, taskCreate("Over the limit", size), chunked);
      assertThat(over.statusCode()).as(over.body()).isEqualTo(413);
      JsonNode error = Json.read(over.body(), JsonNode.class);
      assertThat(error.path("id").isNull()).isTrue();
      assertThat(error.path("error").path("code").asInt()).isEqualTo(JsonRpcErrors.INVALID_REQUEST);
      assertThat(error.path("error").path("message").asText()).isEqualTo("the request body is "
          + (chunked ? "more than " + limit : String.valueOf(size)) + " bytes; the MCP endpoint accepts at most "
          + limit + " bytes (ROUNDHOUSE_MAX_BODY_BYTES)");
      assertThat(over.body()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    HttpResponse<String> next = postInSession(session, taskCreate("After", 1024), chunked);
    assertThat(next.statusCode()).as("the session keeps serving: " + next.body()).isEqualTo(200);
    assertThat(hub.http().get("/api/tasks").body().path("tasks").findValuesAsText("title"))
        .as("the refused request stored nothing").containsExactlyInAnyOrder("At the limit", "After");
    assertThat(hub.http().get("/api/health").status()).isEqualTo(200);
  }

  /** A {@code tools/call} of {@code task_create} whose body is exactly {@code bytes} long (padded with JSON whitespace). */
  private static String taskCreate(String title, int bytes) {
    String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"task_create\","
        + "\"arguments\":{\"project\":\"web\",\"title\":\"" + title + "\"}}";
    return call + " ".repeat(bytes - call.length() - 1) + "}";
  }

  /** A session initialized over raw HTTP; returns its id. */
  private String rawSession() {
    Reply initialized = post(mcp(mcpToken), INITIALIZE);
    assertThat(initialized.status()).isEqualTo(200);
    String session = initialized.raw().headers().firstValue("Mcp-Session-Id").orElseThrow();
    Reply ready = post(mcp(mcpToken).header("Mcp-Session-Id", session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertThat(ready.status()).isEqualTo(202);
    return session;
  }

  /** POSTs {@code body} in {@code session}, with its length declared or (chunked) unknown; the answer as text. */
  private HttpResponse<String> postInSession(String session, String body, boolean chunked) throws Exception {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    HttpRequest request = mcp(mcpToken).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18")
        .timeout(Duration.ofSeconds(30))
        .POST(chunked ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)) : HttpRequest.BodyPublishers.ofByteArray(bytes))
        .build();
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
  }

  @Test
  void unknownSessionIs404NamingTheSessionAsUnknownOrExpiredWithoutStackTrace() {
    Reply reply =
        post(mcp(mcpToken).header("Mcp-Session-Id", "no-such-session"),
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.body().path("error").path("code").asInt()).isEqualTo(-32001);
    assertThat(reply.body().path("error").path("message").asText())
        .contains("unknown or expired MCP session 'no-such-session'").contains("30 minutes").contains("send initialize");
    assertNoStackTrace(reply);
  }

  @Test
  void rewrittenTokenFileRotatesAtOnceAndDeletingItRevokes() throws Exception {
    var file = McpServers.tokenFile(hub.home());
    Files.writeString(file, "rotated-token-value\n");
    assertThat(post(mcp(mcpToken), INITIALIZE).status()).isEqualTo(401);
    assertThat(post(mcp("rotated-token-value"), INITIALIZE).status()).isEqualTo(200);

    Files.delete(file);
    assertThat(post(mcp("rotated-token-value"), INITIALIZE).status()).isEqualTo(401);
  }

  @Test
  void hubRoutesKeepTheirOwnGuard() {
    assertThat(hub.http().get("/api/ops").status()).isEqualTo(200);
    HttpRequest.Builder withMcpToken =
        HttpRequest.newBuilder(java.net.URI.create(hub.server().url() + "/api/ops")).header("Authorization", "Bearer " + mcpToken).GET();
    assertThat(hub.http().send(withMcpToken).status()).as("the MCP token does not open the hub API").isEqualTo(401);
  }

  private HttpRequest.Builder raw() {
    return HttpRequest.newBuilder(java.net.URI.create(hub.server().url() + McpServers.PATH))
        .header("Accept", "application/json, text/event-stream");
  }

  private HttpRequest.Builder mcp(String token) {
    return raw().header("Content-Type", "application/json").header("Authorization", "Bearer " + token);
  }

  private Reply post(HttpRequest.Builder request, String body) {
    return hub.http().send(request.POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private void assertMatchesOutputSchema(String operation, JsonNode output) {
    JsonNode schema = hub.hub().operations().describe(operation).orElseThrow().outputSchema();
    assertThat(JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schema).validate(output))
        .as(operation + " output against its schema")
        .isEmpty();
  }

  private static void assertNoStackTrace(Reply reply) {
    String body = reply.raw().body();
    assertThat(body).doesNotContain("stackTrace").doesNotContain("\tat ").doesNotContain(".java:").doesNotContain("Exception");
  }

  private static McpSchema.CallToolRequest call(String tool, Map<String, Object> arguments) {
    return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
  }

  private static String text(McpSchema.CallToolResult result) {
    return ((McpSchema.TextContent) result.content().get(0)).text();
  }
}
